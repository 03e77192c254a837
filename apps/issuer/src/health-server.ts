// /healthz (the process is alive) and /readyz (PostgreSQL and Redis answer, the worker runs) on a small HTTP port.
import { createServer, type Server } from 'node:http';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

export function createHealthServer(ready: ReadinessCheck): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://issuer').pathname;
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
      return;
    }
    if (path === '/readyz') {
      ready().then(
        (checks) => {
          const ok = Object.values(checks).every(Boolean);
          res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ready' : 'not ready', checks }));
        },
        () => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'not ready' })),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
  });
}
