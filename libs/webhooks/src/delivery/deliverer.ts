// One delivery attempt: a signed POST of the event body to the endpoint, over undici behind the SSRF guard, judged
// by one rule: a 2xx status within the per-attempt timeout (10 s) is delivered; anything else is a failure the retry
// schedule takes over. Redirects are not followed (undici follows none without its redirect interceptor), so a 3xx is
// a failure: an endpoint that moved must be registered again, and a redirect cannot lead the dispatcher elsewhere.
import { type Readable } from 'node:stream';
import { Agent } from 'undici';
import { type WebhookEventName } from '../events/event-names.js';
import { DELIVERY_ID_HEADER, EVENT_HEADER, SIGNATURE_HEADER, epochSeconds, signatureHeader } from '../signing/sign.js';
import { isLoopbackHostname, PRODUCTION_TARGET_POLICY, type TargetPolicy } from './address-policy.js';
import { classifyFailure, type DeliveryResult } from './classify-failure.js';
import { guardedConnector, type HostResolver } from './guarded-connector.js';

/** Whole attempt: connect, TLS, sending the body and receiving the status line and headers. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** What is kept of a response body for the delivery log; the rest is never read. */
export const RESPONSE_EXCERPT_BYTES = 4096;

export interface WebhookDelivererOptions {
  /** The product version for the User-Agent (`Talao-Webhooks/<version>`). */
  productVersion: string;
  policy?: TargetPolicy;
  resolver?: HostResolver;
  timeoutMs?: number;
  responseExcerptBytes?: number;
  /** CA certificates (PEM) trusted besides Node's bundled roots, for endpoints on a private PKI. */
  ca?: string | string[];
  /** Open connections kept per endpoint origin (keep-alive between deliveries); undici's default is unbounded. */
  connectionsPerOrigin?: number;
}

export interface DeliveryAttempt {
  url: string;
  /** Stable across the retries of one delivery (the receiver's deduplication key). */
  deliveryId: string;
  event: WebhookEventName;
  /** The exact body (eventBody): what is signed is what is sent. */
  body: string;
  /** The endpoint's secret, or its current ones during a rotation (one v1 each). */
  secrets: string | readonly string[];
}

export interface DeliveryOutcome {
  result: DeliveryResult;
  /** The response status, when a response arrived in time. */
  status: number | null;
  /** The first RESPONSE_EXCERPT_BYTES of the response body (UTF-8, lossy), when a response arrived. */
  responseExcerpt: string | null;
  /** Why the attempt failed, in words, for the delivery log; null when delivered. */
  error: string | null;
  /** The `t` of the Service-Signature sent. */
  signedAt: number;
  startedAt: Date;
  durationMs: number;
}

export interface WebhookDeliverer {
  deliver(attempt: DeliveryAttempt): Promise<DeliveryOutcome>;
  close(): Promise<void>;
}

/** Reads at most `limit` bytes, then drops the stream (and its connection) rather than draining an unbounded body. */
function readExcerpt(body: Readable, limit: number): Promise<string> {
  // Stream events rather than `for await`: the async iterator costs more than the rest of a small delivery's
  // reading (bench:webhook-delivery).
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let size = 0;
    const finish = () => {
      body.off('data', onData).off('end', finish).off('error', finish).on('error', ignore);
      resolve(Buffer.concat(kept, size).toString('utf8')); // lossy: an invalid sequence becomes U+FFFD
    };
    const onData = (chunk: Buffer) => {
      const part = chunk.length > limit - size ? chunk.subarray(0, limit - size) : chunk;
      kept.push(part);
      size += part.length;
      if (size < limit) return;
      body.destroy(); // the rest is never read
      finish();
    };
    // An error or the deadline while reading: the status already decided; keep what arrived.
    body.on('data', onData).once('end', finish).once('error', finish);
  });
}

const ignore = () => undefined;

/** What the URL alone decides: where to send, or why not (the registration check already refused these). */
type Target = { origin: string; path: string; refusal?: undefined } | { refusal: string };

function targetOf(url: string, policy: TargetPolicy): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refusal: 'the endpoint URL is not a URL' };
  }
  const loopbackHttp = parsed.protocol === 'http:' && policy.allowLoopback && isLoopbackHostname(parsed.hostname);
  if (parsed.protocol !== 'https:' && !loopbackHttp) {
    return {
      refusal: `${parsed.protocol}// is not accepted (https only${policy.allowLoopback ? '; http:// to loopback in local development' : ''})`,
    };
  }
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

/** Endpoints are few and each is delivered to many times: their URLs are parsed once (the cache is bounded). */
const TARGET_CACHE_SIZE = 1024;

export function createWebhookDeliverer({
  productVersion,
  policy = PRODUCTION_TARGET_POLICY,
  resolver,
  timeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS,
  responseExcerptBytes = RESPONSE_EXCERPT_BYTES,
  ca,
  connectionsPerOrigin,
}: WebhookDelivererOptions): WebhookDeliverer {
  const agent = new Agent({
    connect: guardedConnector({ policy, timeoutMs, ...(resolver ? { resolver } : {}), ...(ca ? { ca } : {}) }),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    ...(connectionsPerOrigin ? { connections: connectionsPerOrigin } : {}),
  });
  const userAgent = `Talao-Webhooks/${productVersion}`;
  const targets = new Map<string, Target>();

  async function deliver({ url, deliveryId, event, body, secrets }: DeliveryAttempt): Promise<DeliveryOutcome> {
    const startedAt = new Date();
    const started = performance.now();
    const signedAt = epochSeconds(startedAt);
    const finish = (
      result: DeliveryResult,
      fields: Partial<Pick<DeliveryOutcome, 'status' | 'responseExcerpt' | 'error'>>,
    ): DeliveryOutcome => ({
      result,
      status: fields.status ?? null,
      responseExcerpt: fields.responseExcerpt ?? null,
      error: fields.error ?? null,
      signedAt,
      startedAt,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
    let target = targets.get(url);
    if (!target) {
      if (targets.size >= TARGET_CACHE_SIZE) targets.clear();
      target = targetOf(url, policy);
      targets.set(url, target);
    }
    if (target.refusal !== undefined) return finish('target_refused', { error: target.refusal });
    // One deadline for the whole attempt (undici's connect, headers and body timeouts each bound one phase only).
    // A timer cleared when the attempt ends, not AbortSignal.timeout: that one stays armed for its full 10 s, so
    // thousands of deliveries a second would keep tens of thousands of signals and timers alive.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DOMException(`no response within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    try {
      const response = await agent.request({
        origin: target.origin,
        path: target.path,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': userAgent,
          [SIGNATURE_HEADER]: signatureHeader({ secrets, body, timestamp: signedAt }),
          [DELIVERY_ID_HEADER]: deliveryId,
          [EVENT_HEADER]: event,
        },
        body,
        signal: deadline.signal,
      });
      const status = response.statusCode;
      const responseExcerpt = await readExcerpt(response.body as unknown as Readable, responseExcerptBytes);
      if (status >= 200 && status < 300) return finish('delivered', { status, responseExcerpt });
      const location = status >= 300 && status < 400 ? response.headers.location : undefined;
      const error = location ? `redirect to ${String(location).slice(0, 200)} not followed` : `HTTP ${status}`;
      return finish('http_error', { status, responseExcerpt, error });
    } catch (failure) {
      const { result, error } = classifyFailure(failure, timeoutMs);
      return finish(result, { error });
    } finally {
      clearTimeout(timer);
    }
  }

  return { deliver, close: () => agent.close() };
}
