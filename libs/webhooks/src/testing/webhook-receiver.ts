// A webhook receiver for tests: a real HTTP or HTTPS server on 127.0.0.1 that records every request (headers and
// the exact body bytes) and answers as the test says. Tests reach it through the local-development switch
// (`allowLoopback`), the only way the delivery path accepts a loopback target.
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  receivedAt: Date;
}

/** Answers one request; the body has been read. Leave `res` alone to hang. */
export type Responder = (res: ServerResponse, request: ReceivedRequest) => void;

export const answerStatus =
  (status: number, body = ''): Responder =>
  (res) => {
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  };

export interface WebhookReceiver {
  /** `http(s)://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedRequest[];
  respond: Responder;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Serve HTTPS with this certificate (e.g. icp-test-ca issueServerCertificate(['127.0.0.1', 'localhost'])). */
  tls?: { keyPem: string; certificatePem: string };
  /** Listen on this port (a receiver that comes up where deliveries were refused); any free port when absent. */
  port?: number;
}

export async function startWebhookReceiver({ tls, port = 0 }: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { origin: '', received: [], respond: answerStatus(200, 'ok'), close: async () => undefined };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: new Date(),
      };
      receiver.received.push(request);
      receiver.respond(res, request);
    });
  };
  const server: Server = tls ? createHttpsServer({ key: tls.keyPem, cert: tls.certificatePem }, handle) : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.origin = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}
