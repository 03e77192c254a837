import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Level, Logger } from 'pino';
import { REQUEST_ID_HEADER, resolveRequestId } from './request-id.js';

/** Express/Connect middleware signature. */
export type HttpLogger = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What the completion line says about the request, read when it arrives (the socket may be gone at the end). */
interface RequestFacts {
  readonly method: string | undefined;
  /** Query strings may carry tokens in the wild; the path is enough to find a request. */
  readonly path: string | undefined;
  readonly remote_address: string | undefined;
}

function levelOf(res: ServerResponse, error: unknown): Level {
  // As the gateway configured pino-http's customLogLevel (which saw only the 'error' event's argument).
  return error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
}

/**
 * Express/Connect middleware: assigns the request id (`req.id`), echoes it in `X-Request-Id`, and writes one line per
 * completed request. Only the method, path, status and timing are logged — never headers or bodies, which carry
 * credentials and certificates.
 *
 * The line is the one pino-http wrote (request_id, req, res, responseTime; "request completed", "request aborted" or
 * "request errored"; info, warn from 400, error from 500), but nothing is built for it unless its level is enabled:
 * pino-http made two child loggers per request (each serializing and redacting its bindings) even when the line was
 * then dropped, which at LOG_LEVEL=warn was nearly all of its cost. http-logging.spec.ts holds the two side by side.
 */
export function createHttpLogger(logger: Logger): HttpLogger {
  return (req, res, next) => {
    const started = Date.now();
    const withId = req as { id?: unknown };
    // An id set upstream is kept as it is (and not echoed), as pino-http did.
    if (!withId.id) {
      withId.id = resolveRequestId(req.headers[REQUEST_ID_HEADER]);
      res.setHeader('X-Request-Id', withId.id as string);
    }
    const id = withId.id;
    const facts: RequestFacts = {
      method: req.method,
      // Express sets originalUrl before any middleware runs; req.url is what a bare server has.
      path: ((req as { originalUrl?: string }).originalUrl ?? req.url)?.split('?')[0],
      remote_address: req.socket?.remoteAddress,
    };
    const complete = (error?: unknown) => {
      res.removeListener('close', complete);
      res.removeListener('finish', complete);
      res.removeListener('error', complete);
      const level = levelOf(res, error);
      if (!logger.isLevelEnabled(level)) return;
      const responseTime = Date.now() - started;
      // No status is reported for a response that never sent its headers (an aborted request).
      const status = { status: res.headersSent ? res.statusCode : null };
      const failure = error || (res as { err?: unknown }).err;
      if (failure || res.statusCode >= 500) {
        const err = failure || new Error(`failed with status code ${res.statusCode}`);
        logger[level]({ request_id: id, req: facts, res: status, err, responseTime }, 'request errored');
        return;
      }
      const message = !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
      logger[level]({ request_id: id, req: facts, res: status, responseTime }, message);
    };
    res.on('close', complete);
    res.on('finish', complete);
    res.on('error', complete);
    next();
  };
}
