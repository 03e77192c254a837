import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, resolveRequestId } from './request-id.js';

/**
 * Express/Connect middleware: assigns the request id (`req.id`), echoes it in `X-Request-Id`, gives each request a
 * child logger (`req.log`) carrying that id, and writes one line per completed request. Only the method, path,
 * status and timing are logged — never headers or bodies, which carry credentials and certificates.
 */
export function createHttpLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const id = resolveRequestId(req.headers[REQUEST_ID_HEADER]);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'request_id' },
    // Binds request_id on req.log and on the completion line (and keeps the request object off the child logger).
    quietReqLogger: true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    serializers: {
      req: (req: { method?: string; url?: string; remoteAddress?: string }) => ({
        method: req.method,
        // Query strings may carry tokens in the wild; the path is enough to find a request.
        path: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
        remote_address: req.remoteAddress,
      }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
  });
}
