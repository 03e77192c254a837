import { sendError } from './error-envelope.js';
import type { GatewayRequest, GatewayResponse, Next } from './gateway-request.js';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function hasBody(req: GatewayRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Every endpoint that takes a body takes JSON: anything else is refused before it is read (415). */
export function requireJsonBodies(req: GatewayRequest, res: GatewayResponse, next: Next): void {
  if (hasBody(req) && !JSON_MEDIA_TYPE.test(req.headers['content-type'] ?? '')) {
    sendError(req, res, 415, 'Content-Type must be application/json');
    return;
  }
  next();
}

/**
 * Maps body-parser failures (registered right after the JSON parser, so these never reach Nest's generic handling)
 * to the envelope. The parser's own message (which quotes the payload's syntax error) is not passed on.
 */
export function bodyParserErrors(limitBytes: number) {
  const limit = limitBytes % (1024 * 1024) === 0 ? `${limitBytes / (1024 * 1024)} MiB` : `${limitBytes} bytes`;
  return (error: unknown, req: GatewayRequest, res: GatewayResponse, next: Next): void => {
    const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
    switch (type) {
      case 'entity.parse.failed':
        return sendError(req, res, 422, 'The request body is not valid JSON');
      case 'entity.too.large':
        // The client may still be sending the rest; closing after the answer stops it using our bandwidth.
        res.setHeader('Connection', 'close');
        return sendError(req, res, 413, `The request body exceeds ${limit}`);
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return sendError(req, res, 415, 'The request body must be UTF-8 JSON without content encoding');
      case 'request.aborted':
      case 'request.size.invalid':
      case 'stream.encoding.set':
        return sendError(req, res, 400, 'The request body could not be read');
      default:
        return next(error);
    }
  };
}
