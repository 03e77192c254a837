import { sendError } from '../http/error-envelope.js';
import {
  API_PREFIX,
  isAdminPath,
  isApiPath,
  isHealthPath,
  pathOf,
  type GatewayRequest,
  type GatewayResponse,
  type Next,
} from '../http/gateway-request.js';
import { operationFor, type OperationName } from './operations.js';
import type { RateLimiter } from './rate-limiter.js';

export { API_PREFIX };
/** Public parts of /api/v1: no key needed, limited per client IP. */
export const PUBLIC_API_PATHS = /^\/api\/v1\/(?:openapi\.json|docs(?:\/.*)?)$/;

/**
 * Which allowance a request spends. Paths are compared exactly as the router compares them (case-sensitive, the
 * absolute form already rewritten by request-target.ts), so no spelling of a route reaches it through another
 * allowance. Paths outside the API and the admin API (unknown ones included) spend the unauthenticated allowance
 * of the client's IP; only the health probes are free.
 */
function classify(req: GatewayRequest): { operation: OperationName; caller: string } | null {
  const path = pathOf(req);
  const ip = `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  if (isAdminPath(path)) return { operation: 'admin', caller: ip };
  if (!isApiPath(path)) return isHealthPath(path) ? null : { operation: 'unauthenticated', caller: ip };
  if (PUBLIC_API_PATHS.test(path)) return { operation: 'public_docs', caller: ip };
  const authentication = req.authentication;
  if (!authentication?.ok) return { operation: 'unauthenticated', caller: ip };
  return { operation: operationFor(req.method ?? 'GET', path.slice(API_PREFIX.length)), caller: `key:${authentication.caller.apiKeyId}` };
}

/**
 * Runs after authentication and before the body is read or any route runs, so every response — 401, 404, 413,
 * 422 and successes alike — carries the X-RateLimit-* headers of the allowance it was counted against.
 */
export function rateLimit(limiter: RateLimiter) {
  return (req: GatewayRequest, res: GatewayResponse, next: Next): void => {
    const target = classify(req);
    if (!target) return next();
    limiter.consume(target.operation, target.caller).then((decision) => {
      res.setHeader('X-RateLimit-Limit', String(decision.limit));
      res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
      res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
      if (decision.allowed) return next();
      res.setHeader('Retry-After', String(decision.retryAfter));
      sendError(req, res, 429, `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.retryAfter} s`);
    }, next);
  };
}
