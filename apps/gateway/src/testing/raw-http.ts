// HTTP/1.1 over a plain socket, for what fetch will not send: absolute-form targets, malformed framing, bodies
// that never end. Loopback only.
import net from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The raw bytes received (latin1), for assertions on framing. */
  readonly text: string;
}

function parse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end === -1 ? '' : text.slice(end + 4);
  if (headers['content-length'] !== undefined) body = body.slice(0, Number(headers['content-length']));
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: Buffer.from(body, 'latin1').toString('utf8'), text };
}

/** Sends `request` as is (add "Connection: close") and reads until the server closes or `timeoutMs` passes. */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('latin1')));
    });
  });
}

/**
 * Sends `head`, then body bytes without end (64 KiB blocks, as chunks when `chunked`) until the server answers and
 * closes its end, or `maxBytes` were written. Returns the answer and how much was written.
 */
export function floodRequest(
  port: number,
  head: string | Buffer,
  options: { chunked: boolean; maxBytes?: number; timeoutMs?: number },
): Promise<RawResponse & { written: number; localPort: number; ending: string }> {
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const block = Buffer.alloc(64 * 1024, 0x20);
    const frame = options.chunked ? Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from('\r\n')]) : block;
    let written = 0;
    let open = true;
    let localPort = 0;
    const pump = () => {
      while (open && written < maxBytes) {
        written += frame.length;
        if (!socket.write(frame)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    // How the exchange ended, for a failure to say: the server's FIN, a socket error, or this side's timeout.
    let ending = 'closed';
    const timeoutMs = options.timeoutMs ?? 10_000;
    const timer = setTimeout(() => {
      ending = `no answer within ${timeoutMs} ms`;
      socket.destroy();
    }, timeoutMs);
    socket.on('connect', () => {
      localPort = socket.localPort ?? 0;
      socket.write(head);
      pump();
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server answered and closed its end: the answer is whole, stop writing (as a client that reads would).
    socket.on('end', () => {
      ending = 'the server closed its end';
      socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ending = `socket error ${error.code ?? error.message}`;
    });
    socket.on('close', () => {
      open = false;
      clearTimeout(timer);
      resolve({ ...parse(Buffer.concat(chunks).toString('latin1')), written, localPort, ending });
    });
  });
}
