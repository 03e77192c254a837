// The one reader of request bodies, for every route: JSON only, UTF-8 only, uncompressed, at most BODY_LIMIT_BYTES,
// then checked (json-scan.ts) before JSON.parse. A body over the limit is never drained: a declared Content-Length
// is refused before a byte is read, a chunked body is read up to the limit only, and either way the connection is
// closed after the 413 (a lingering close: see refuseAndClose), so a client cannot make the gateway read a gigabyte
// it will refuse anyway.
import { Dec } from '@talao/fiscal-model';
import { sendError } from './error-envelope.js';
import { pathOf, type GatewayRequest, type GatewayResponse, type Next } from './gateway-request.js';
import { MAX_JSON_DEPTH, scanJsonText, type JsonTextProblem } from './json-scan.js';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function hasBody(req: GatewayRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function describeLimit(limitBytes: number): string {
  return limitBytes % (1024 * 1024) === 0 ? `${limitBytes / (1024 * 1024)} MiB` : `${limitBytes} bytes`;
}

/** How long a refused connection stays half-open, unread, before it is destroyed (see refuseAndClose). */
const LINGER_MS = 2_000;

/**
 * Answers and closes the connection without reading further: Node would otherwise read (and discard) the rest of
 * the body after the answer to keep the connection alive.
 *
 * Closing a socket that still holds unread bytes makes the kernel send a reset at once, and a client still writing
 * its body can meet that reset before it has read the answer: it then sees "connection reset", not the 413. So the
 * close lingers, as web servers do it: the answer goes out with a FIN, the socket stays half-open without reading
 * (the client's writes stall on full buffers, nothing more is read) and is destroyed LINGER_MS later. Node's HTTP
 * server ends a `Connection: close` exchange with socket.destroySoon(), which is what this replaces for this one
 * socket.
 */
function refuseAndClose(req: GatewayRequest, res: GatewayResponse, status: number, detail: string): void {
  req.pause();
  const socket = req.socket;
  socket.destroySoon = () => {
    // Nothing more is read: once the exchange ends Node would resume the socket to discard the rest of the body.
    socket.pause();
    socket.resume = () => socket;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  };
  res.setHeader('Connection', 'close');
  sendError(req, res, status, detail);
}

const PROBLEM_TEXT: Record<
  Exclude<JsonTextProblem['kind'], 'too_deep'>,
  { code: string; message: (p: JsonTextProblem) => string; expected: string }
> = {
  unstorable_text: {
    code: 'FIELD_CHARACTERS_UNSUPPORTED',
    message: (p) =>
      `Contains ${p.kind === 'unstorable_text' && p.character === 'NUL' ? 'a NUL character (\\u0000)' : 'an unpaired UTF-16 surrogate'}, which no document or record can hold`,
    expected: 'text without NUL characters or unpaired surrogates',
  },
  duplicate_key: { code: 'FIELD_INVALID', message: () => 'Appears more than once in its object', expected: 'each field at most once' },
  forbidden_key: {
    code: 'FIELD_UNKNOWN',
    message: () => 'Field names __proto__, constructor and prototype are not accepted',
    expected: 'no such field',
  },
};

/** A field-level refusal in the shape of the route family: the invoice API's FieldError, the admin API's problems. */
function sendProblem(req: GatewayRequest, res: GatewayResponse, problem: JsonTextProblem): void {
  if (problem.kind === 'too_deep') {
    return sendError(req, res, 422, `The request body nests objects and arrays deeper than ${problem.maxDepth} levels`);
  }
  const text = PROBLEM_TEXT[problem.kind];
  const message = text.message(problem);
  if (pathOf(req).startsWith('/admin/')) {
    return sendError(req, res, 422, { message: 'The request body is invalid', errors: [{ field: problem.field, message }] });
  }
  // The offending value is never echoed back: echoing it is what once made the stored idempotent answer fail.
  const error = { code: text.code, field: problem.field, message, expected: text.expected, received: null };
  // `errors` beside `detail`, as every 422 of the invoice API carries both.
  sendError(req, res, 422, error, { errors: [error] });
}

export interface JsonBodyOptions {
  readonly limitBytes: number;
  readonly maxDepth?: number;
}

/** Express middleware: sets `req.body` (undefined when the request has no body), or answers 413 / 415 / 422 / 400. */
export function jsonBodies(options: JsonBodyOptions) {
  const { limitBytes } = options;
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const tooLarge = `The request body exceeds ${describeLimit(limitBytes)}`;
  return (req: GatewayRequest, res: GatewayResponse, next: Next): void => {
    if (!hasBody(req)) return next();
    const type = req.headers['content-type'] ?? '';
    if (!JSON_MEDIA_TYPE.test(type)) return refuseAndClose(req, res, 415, 'Content-Type must be application/json');
    const charset = CHARSET.exec(type)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return refuseAndClose(req, res, 415, 'The request body must be JSON in UTF-8 (charset=utf-8)');
    }
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      return refuseAndClose(req, res, 415, 'Content-Encoding is not accepted: send the JSON body uncompressed');
    }
    // Node has already refused a Content-Length that is not a number (see client-errors.ts).
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limitBytes) return refuseAndClose(req, res, 413, tooLarge);

    const chunks: Buffer[] = [];
    let received = 0;
    let finished = false;
    const stop = () => {
      finished = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      chunks.length = 0;
      refuseAndClose(req, res, 413, tooLarge);
    };
    const onEnd = () => {
      stop();
      parseInto(req, res, next, Buffer.concat(chunks, received), maxDepth);
    };
    // The client went away or broke the framing mid-body: nobody is left to read an answer, but try.
    const onError = () => {
      stop();
      refuseAndClose(req, res, 400, 'The request body could not be read');
    };
    const onClose = () => {
      if (!finished) onError();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  };
}

// A JSON number becomes a binary double, which holds 15 to 17 significant digits: `"unit_price": 1234567.1234567891`
// reached the decimal code as 1234567.1234567892 and was signed so. A number the double does not give back exactly
// is kept as its text instead (JSON.parse's source access), which every decimal field takes as it takes a string
// (SPEC.md: "may be sent as a string") and every other field refuses as not a number. Only bodies holding a run of 16
// digits, points and exponents pay for the reviver: a number of at most 15 significant digits always comes back
// exact, and a short exponent past the double's range (1e400, 1e-400) is refused further on as not positive or finite.
const LONG_NUMBER = /[0-9][0-9.eE+-]{15}/;

function keepImpreciseNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  return Number.isFinite(value) && new Dec(String(value)).eq(context.source) ? value : context.source;
}

function parseInto(req: GatewayRequest, res: GatewayResponse, next: Next, bytes: Buffer, maxDepth: number): void {
  if (bytes.length === 0) return next();
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return sendError(req, res, 422, 'The request body is not valid UTF-8');
  }
  const problem = scanJsonText(text, maxDepth);
  if (problem) return sendProblem(req, res, problem);
  try {
    req.body = (LONG_NUMBER.test(text) ? JSON.parse(text, keepImpreciseNumbers) : JSON.parse(text)) as unknown;
  } catch {
    // The parser's own message quotes the payload; it is not passed on.
    return sendError(req, res, 422, 'The request body is not valid JSON');
  }
  next();
}
