// /healthz (the process is alive), /readyz (every check answers: the database, Redis, the worker runs) and /metrics
// (Prometheus) on a small HTTP port of its own; a worker listens on nothing else.
import { createServer, type Server } from 'node:http';
import { METRICS_CONTENT_TYPE, renderMetrics } from '@talao/observability';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

export function createHealthServer(ready: ReadinessCheck): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker').pathname;
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
      return;
    }
    if (path === '/readyz') {
      ready().then(
        (checks) => {
          const ok = Object.values(checks).every(Boolean);
          res
            .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
            .end(JSON.stringify({ status: ok ? 'ready' : 'not ready', checks }));
        },
        () => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'not ready' })),
      );
      return;
    }
    if (path === '/metrics') {
      renderMetrics().then(
        (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
  });
}

/** Each check as true when it resolves (to anything but `false`) within `timeoutMs`; false otherwise. */
export async function runChecks(checks: Record<string, () => Promise<unknown>>, timeoutMs: number): Promise<Record<string, boolean>> {
  const names = Object.keys(checks);
  const results = await Promise.all(
    names.map((name) =>
      withTimeout(checks[name]!(), timeoutMs).then(
        (answer) => answer !== false,
        () => false,
      ),
    ),
  );
  return Object.fromEntries(names.map((name, i) => [name, results[i]!]));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
