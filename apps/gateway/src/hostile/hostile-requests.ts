// What a hostile request is, how it is written as raw bytes, and the requests no route owns (unknown paths, malformed
// and oversized heads, conflicting framing): the protocol half of the hostile corpus.

export interface HostileRequest {
  readonly category: string;
  readonly label: string;
  readonly method: string;
  /** Origin form, sent as is. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
  /** Sent over a plain socket, byte for byte (targets and framing fetch would normalise or refuse). */
  readonly raw?: Buffer;
  readonly expect?: { readonly status?: readonly number[]; readonly field?: string };
}

/** An HTTP/1.1 request as bytes: head in Latin-1 (one byte a character, as header bytes are), body in UTF-8. */
export function requestBytes(
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  extraHeaderLines = '',
): Buffer {
  const bytes = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const lines = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const length = bytes ? `Content-Length: ${bytes.length}\r\n` : '';
  const head = Buffer.from(
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}${extraHeaderLines}${length}Connection: close\r\n\r\n`,
    'latin1',
  );
  return bytes ? Buffer.concat([head, bytes]) : head;
}

/** Requests no route owns: unknown paths, malformed heads, oversized heads. */
export function protocolCases(apiKey: string): HostileRequest[] {
  const cases: HostileRequest[] = [];
  const add = (label: string, raw: string | Buffer, expect?: HostileRequest['expect']) => {
    const bytes = typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw;
    cases.push({
      category: 'protocol',
      label,
      method: 'RAW',
      path: bytes.toString('latin1').split(' ')[1] ?? '',
      headers: {},
      raw: bytes,
      ...(expect && { expect }),
    });
  };
  const auth = `Authorization: Bearer ${apiKey}\r\n`;
  for (const target of [
    '/',
    '/api',
    '/api/v1',
    '/api/v2/me',
    '/admin',
    '/admin/v1',
    '/healthz/',
    '/readyz?x=%00',
    '/.env',
    '/api/v1/../../etc/passwd',
    `/${'%41'.repeat(2_000)}`,
  ]) {
    add(`GET ${target.slice(0, 40)}`, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Connection: close\r\n\r\n`);
  }
  add('HTTP/1.0 without Host', `GET /api/v1/me HTTP/1.0\r\n${auth}\r\n`);
  add('no Host', `GET /api/v1/me HTTP/1.1\r\n${auth}Connection: close\r\n\r\n`);
  add('garbage request line', 'GARBAGE\r\n\r\n', { status: [400] });
  add('unknown protocol version', 'GET /api/v1/me HTTP/9.9\r\nHost: x\r\n\r\n');
  add('header without colon', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n`, { status: [400] });
  add('header value with a bare CR', Buffer.from(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n`, 'latin1'), { status: [400] });
  add('32 KiB of headers', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(32 * 1024)}\r\n\r\n`, { status: [431] });
  add(
    '500 headers',
    `GET /api/v1/me HTTP/1.1\r\nHost: x\r\n${auth}${Array.from({ length: 500 }, (_, i) => `X-H${i}: ${i}\r\n`).join('')}Connection: close\r\n\r\n`,
  );
  add(
    'Content-Length and Transfer-Encoding',
    `POST /api/v1/invoices HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    { status: [400] },
  );
  add(
    'two Content-Lengths',
    `POST /api/v1/invoices HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    { status: [400] },
  );
  add(
    'negative Content-Length',
    `POST /api/v1/invoices HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n`,
    { status: [400] },
  );
  add(
    'bad chunk size',
    `POST /api/v1/invoices HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    { status: [400] },
  );
  add('X-Request-Id injection', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\n${auth}X-Request-Id: a"b<script>\r\nConnection: close\r\n\r\n`);
  return cases;
}
