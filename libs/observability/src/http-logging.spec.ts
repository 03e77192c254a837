import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
import { createHttpLogger } from './http-logging.js';
import { createLogger } from './logger.js';

// The completion line used to be written by pino-http, configured as below; createHttpLogger writes it without
// building anything for a dropped line. The two run side by side here and must write the same lines.
function pinoHttpAsConfiguredBefore(logger: ReturnType<typeof createLogger>) {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const header = req.headers['x-request-id'];
      const id = typeof header === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(header) ? header : 'generated';
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'request_id' },
    quietReqLogger: true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    serializers: {
      req: (req: { method?: string; url?: string; remoteAddress?: string }) => ({
        method: req.method,
        path: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
        remote_address: req.remoteAddress,
      }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
  });
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

async function serve(level: string, middleware: (logger: ReturnType<typeof createLogger>) => Middleware) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const handle = middleware(createLogger({ name: 'test', level, destination }));
  const server: Server = createServer((req, res) => {
    handle(req, res, () => {
      const path = req.url?.split('?')[0];
      if (path === '/slow') {
        setTimeout(() => res.end('late'), 100);
        return;
      }
      res.statusCode = path === '/ok' ? 200 : path === '/boom' ? 500 : 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, lines, port: (server.address() as AddressInfo).port };
}

function call(port: number, path: string, id: string | undefined, abort = false): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: id ? { 'X-Request-Id': id } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['x-request-id'] as string | undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end('{"a":1}');
    if (abort) setTimeout(() => req.destroy(), 30);
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

function normalized(line: Record<string, unknown>): Record<string, unknown> {
  const { time: _time, responseTime, err, ...rest } = line;
  const error = err as { stack?: string } | undefined;
  return {
    ...rest,
    responseTime: typeof responseTime,
    ...(error ? { err: { ...error, stack: error.stack?.split('\n')[0] } } : {}),
  };
}

describe('createHttpLogger', () => {
  it.each(['info', 'warn'])('writes the lines pino-http wrote, at level %s', async (level) => {
    const before = await serve(level, (logger) => pinoHttpAsConfiguredBefore(logger) as unknown as Middleware);
    const after = await serve(level, (logger) => createHttpLogger(logger));
    try {
      for (const target of [before, after]) {
        expect(await call(target.port, '/ok?token=secret', 'req-1')).toBe('req-1');
        expect(await call(target.port, '/missing', 'req-2')).toBe('req-2');
        expect(await call(target.port, '/boom', 'req-3')).toBe('req-3');
        expect(await call(target.port, '/ok', 'not a sane id')).toMatch(target === before ? /^generated$/ : /^[0-9a-f-]{36}$/);
        await call(target.port, '/slow', 'req-5', true);
      }
      await settle();
      const withoutGeneratedIds = (lines: Record<string, unknown>[]) =>
        lines
          .map(normalized)
          .map((l) =>
            l.request_id === 'generated' || /^[0-9a-f-]{36}$/.test(String(l.request_id)) ? { ...l, request_id: 'generated' } : l,
          );
      expect(after.lines.length).toBe(level === 'info' ? 5 : 2);
      expect(withoutGeneratedIds(after.lines)).toEqual(withoutGeneratedIds(before.lines));
      // the same text, not only the same values: the fields in the same order
      const order = (lines: Record<string, unknown>[]) => lines.map((l) => [...Object.keys(l), ...Object.keys(l.req as object)]);
      expect(order(after.lines)).toEqual(order(before.lines));
      expect(after.lines[0]).toMatchObject(
        level === 'info'
          ? { level: 'info', request_id: 'req-1', req: { method: 'POST', path: '/ok' }, res: { status: 200 }, msg: 'request completed' }
          : { level: 'warn', request_id: 'req-2', res: { status: 404 } },
      );
    } finally {
      before.server.close();
      after.server.close();
    }
  });
});
