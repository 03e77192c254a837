// The request target every later step reads (authentication, rate limit, routing, logs), made one and the same.
// HTTP/1.1 servers must accept the absolute form (`GET http://host/admin/v1/companies HTTP/1.1`, RFC 9112 §3.2.2):
// Express routes it by its path, but code comparing `req.url` with "/admin/v1/…" did not recognise it, so the admin
// limiter and API-key authentication were skipped for it. It is rewritten to the origin form (path and query,
// unchanged: no dot-segment resolution, no re-encoding) before anything else looks at it. Targets whose
// percent-encoding does not spell UTF-8, or that spell a NUL, are refused here in the gateway's own words (the
// router's decoder would answer "Failed to decode param").
import { sendError } from './error-envelope.js';
import type { GatewayRequest, GatewayResponse, Next } from './gateway-request.js';

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*([/?][^#]*)?$/i;
// What a request target never holds (RFC 9112 §3.2 over RFC 3986): a fragment, white space, controls, a backslash,
// anything beyond ASCII. The router's URL parser (parseurl) hands a target holding "#", white space, U+00A0 or
// U+FEFF to Node's legacy url.parse, which cuts the path at the "#": `POST /api/v1/invoices/#/cancel` was routed as
// POST /invoices while the OAuth scope check and the rate limiter, reading the whole path, saw a cancellation.
const NOT_IN_A_TARGET = /[^\x21-\x7e]|[#\\]/;

function decodes(part: string): boolean {
  try {
    return !decodeURIComponent(part).includes('\u0000');
  } catch {
    return false;
  }
}

/** Rewrites an absolute-form target to its origin form; runs first, so every later step reads the same path. */
export function normalizeRequestTarget(req: GatewayRequest, _res: GatewayResponse, next: Next): void {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) {
    const absolute = ABSOLUTE_FORM.exec(target);
    if (absolute) {
      const rest = absolute[1] ?? '/';
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
      req.originalUrl = req.url;
    }
  }
  next();
}

/**
 * Refuses targets the router could not decode (answered by the router as "Failed to decode param …") or that spell
 * a NUL, targets holding what no target holds (a fragment, white space, a backslash, non-ASCII), targets in neither origin nor absolute form (`OPTIONS *`), and HTTP/1.1 requests without Host (RFC 9112
 * §3.2; Node's own check answers a bare 400, so the server leaves it to this one). Runs after the rate limiter, so
 * these answers carry its headers too.
 */
export function refuseMalformedTargets(req: GatewayRequest, res: GatewayResponse, next: Next): void {
  if (req.httpVersion === '1.1' && req.headers.host === undefined)
    return sendError(req, res, 400, 'HTTP/1.1 requests must carry a Host header');
  const target = req.url ?? '/';
  if (!target.startsWith('/')) return sendError(req, res, 400, 'The request target must be a path such as /api/v1/me');
  if (NOT_IN_A_TARGET.test(target)) {
    return sendError(req, res, 400, 'The request target is not valid: a path and query of printable ASCII, without "#" or "\\"');
  }
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  // The query's "+" means a space to its parser; decoding without that rule is enough to find bad sequences.
  if (!decodes(path) || (queryAt !== -1 && !decodes(target.slice(queryAt + 1)))) {
    return sendError(req, res, 400, 'The request target is not valid: percent-encoding must spell UTF-8 text without NUL');
  }
  next();
}
