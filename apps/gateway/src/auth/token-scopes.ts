// SPEC.md Authentication 8: the API compares an OAuth access token's scopes with the operation on every call, and
// refuses (403, RFC 6750 insufficient_scope naming the scope needed) before any body is read or any route runs. API
// keys are not narrowed. The operation is the rate limiter's (one reading of a path for both); an operation no scope
// covers (webhooks, anything not yet in OPERATION_SCOPES) is closed to access tokens.
import { bearerChallenge, OPERATION_SCOPES } from '@talao/access-tokens';
import { sendError } from '../http/error-envelope.js';
import { API_PREFIX, pathOf, type GatewayRequest, type GatewayResponse, type Next } from '../http/gateway-request.js';
import { operationFor } from '../rate-limit/operations.js';

export function enforceTokenScopes(req: GatewayRequest, res: GatewayResponse, next: Next): void {
  const authentication = req.authentication;
  if (!authentication?.ok || !authentication.caller.oauth) return next();
  const operation = operationFor(req.method ?? 'GET', pathOf(req).slice(API_PREFIX.length));
  const required = OPERATION_SCOPES[operation];
  if (required === null) return next();
  if (required === undefined) {
    res.setHeader(
      'WWW-Authenticate',
      bearerChallenge({ error: 'insufficient_scope', description: 'not available to OAuth access tokens' }),
    );
    return sendError(req, res, 403, `The operation ${operation} is not available to OAuth access tokens; use an API key`);
  }
  if (authentication.caller.oauth.scopes.has(required)) return next();
  res.setHeader('WWW-Authenticate', bearerChallenge({ error: 'insufficient_scope', scope: required }));
  sendError(req, res, 403, `The access token lacks the scope ${required} this operation needs`, { required_scope: required });
}
