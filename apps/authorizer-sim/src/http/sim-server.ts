import { type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { type TLSSocket } from 'node:tls';
import { extractTaxId } from '@talao/xml-signing';
import { handleNfse } from '../nfse/sefin-api.js';
import { type SefazCall, type SimServices } from '../sefaz/sefaz-context.js';
import { dispatchSoap } from '../sefaz/soap-dispatch.js';
import { type SimTlsMaterial } from '../sim-ca.js';
import { faultKey, matchRoute } from './routes.js';

const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) resolve(undefined);
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The client certificate is fixed for the life of a TLS connection, and keep-alive clients send many requests on
 * one: read it (getPeerCertificate decodes the whole certificate) and extract the tax id once per socket.
 */
const transmitterBySocket = new WeakMap<TLSSocket, string | null>();

function transmitterTaxId(req: IncomingMessage): string | null {
  const socket = req.socket as TLSSocket;
  const known = transmitterBySocket.get(socket);
  if (known !== undefined) return known;
  const peer = socket.getPeerCertificate();
  const cn = typeof peer?.subject?.CN === 'string' ? peer.subject.CN : null;
  const taxId = peer?.raw ? extractTaxId(peer.raw, cn) : null;
  transmitterBySocket.set(socket, taxId);
  return taxId;
}

/**
 * The authorizers' HTTPS front: mutual TLS with the simulator's CA (no certificate or another CA's certificate is
 * refused in the handshake, as the real services do), then the faults set through the control API, then the
 * simulated service.
 */
export function createSimServer(material: SimTlsMaterial, services: SimServices): Server {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://simulator');
    const route = matchRoute(url.pathname);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Request Entity Too Large');
      return;
    }
    const key = faultKey(route);
    const fault = services.faults.for(key);
    if (fault.outage) {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>Service Unavailable</body></html>');
      return;
    }
    if (fault.latencyMs) await sleep(fault.latencyMs);

    let status: number;
    let answer: string | Buffer;
    let contentType = 'application/soap+xml; charset=utf-8';
    if (route.family === 'sefaz') {
      const tpAmb = route.environment === 'production' ? '1' : '2';
      const call: SefazCall = { authorizer: route.authorizer, tpAmb, transmitterTaxId: transmitterTaxId(req) };
      ({ status, body: answer } = dispatchSoap(route, call, services, req.headers['content-type'] ?? '', body));
    } else {
      const tpAmb = route.environment === 'production' ? '1' : '2';
      const method = req.method ?? 'GET';
      ({
        status,
        contentType,
        body: answer,
      } = handleNfse(
        { family: route.family, tpAmb, method, path: route.rest, query: url.searchParams, body, transmitterTaxId: transmitterTaxId(req) },
        services,
      ));
      if (method === 'HEAD') answer = '';
    }
    // The request has been processed (state changed, protocol issued): now the answer may be lost on purpose.
    if (fault.hang) return;
    if (services.faults.take(key, 'dropResponses') || services.faults.dropsByRate(key)) {
      req.socket.destroy();
      return;
    }
    res.writeHead(status, { 'content-type': contentType }).end(answer);
  };

  return createServer(
    {
      key: material.serverKeyPem,
      cert: material.serverCertificatePem,
      ca: [material.ca.caCertificatePem],
      requestCert: true,
      rejectUnauthorized: true,
      keepAliveTimeout: 30_000,
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`internal simulator error: ${(error as Error).message}`);
      });
    },
  );
}
