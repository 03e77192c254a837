// Requests Node's HTTP parser refuses (a Content-Length that is not a number, malformed header lines, headers over
// the size limit, a request that took too long to arrive) never reach Express; Node's default answer is a bare
// "400 Bad Request" with no body. This one answers in the gateway's envelope, and closes the connection.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

const ANSWERS: Record<string, { status: number; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'The request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request did not arrive in time' },
  HPE_INVALID_CONTENT_LENGTH: { status: 400, detail: 'Content-Length must be one decimal number' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { status: 400, detail: 'Content-Length and Transfer-Encoding must not both be sent' },
};
const MALFORMED = { status: 400, detail: 'The request is not well-formed HTTP/1.1' };

/** Node's own rule: answer only when no response of this connection has started, then close it. */
function mayAnswer(socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null }): boolean {
  return socket.writable && !socket._httpMessage?.headersSent;
}

export function answerClientErrors(server: Server): void {
  // Emitted for every error of a client connection (a reset by the peer included), not only for parse errors.
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    const code = error.code ?? '';
    if (!(code.startsWith('HPE_') || code === 'ERR_HTTP_REQUEST_TIMEOUT') || !mayAnswer(socket)) {
      socket.destroy();
      return;
    }
    const { status, detail } = ANSWERS[code] ?? MALFORMED;
    const body = JSON.stringify({ detail, request_id: randomUUID() });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
}
