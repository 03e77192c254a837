// One `deliver-webhook` job: claim the attempt in PostgreSQL, send it, record the outcome and the next try (the retry
// schedule), and enqueue that try as a delayed job. The claim makes a duplicate job harmless; PostgreSQL's
// next_attempt_at, not the delayed job, is the truth, so a lost job is re-driven by the sweep.
import { webhookDeliveries } from '@talao/observability';
import type { DeliverWebhookJobResult, JobPayload } from '@talao/queue-contracts';
import { enqueueJob } from '@talao/queue-contracts';
import { isWebhookEventName } from '../events/event-names.js';
import { nextAttemptAt } from '../schedule/retry-schedule.js';
import type { DispatcherDeps } from './dispatcher-deps.js';

/** How long an endpoint at its in-flight limit has its further attempts put off (plus up to as much again, jitter). */
const DEFER_MS = 500;
/** The claim's lease beyond the attempt's timeout: a dispatcher killed mid-attempt leaves it overdue after this. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Text PostgreSQL stores: a receiver's answer may hold NUL (a gzip or binary body, even with a 200), which a text column
 * refuses. Unrecorded, the attempt was claimed again and again by the sweep: the same event re-sent every ~45 s, never
 * given up. NUL and unpaired surrogates become U+FFFD, as the UTF-8 decoding does with invalid bytes.
 */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\u0000', '\uFFFD').replace(/\p{Cs}/gu, '\uFFFD');
}

export async function runDeliverJob(deps: DispatcherDeps, job: JobPayload<'deliver-webhook'>): Promise<DeliverWebhookJobResult> {
  const { deliveryId, endpointId, attempt } = job;
  if (!deps.limiter.tryAcquire(endpointId)) {
    const delayMs = DEFER_MS * (1 + (deps.random ?? Math.random)());
    await deps.deliveries.defer(deliveryId, attempt, new Date(Date.now() + delayMs));
    await enqueueJob(deps.queues, { name: 'deliver-webhook', data: { ...job, redrive: Date.now() } }, { delayMs });
    return { kind: 'skipped', reason: 'endpoint at its in-flight limit; put off' };
  }
  try {
    const claimed = await deps.deliveries.claim(deliveryId, attempt, deps.settings.timeoutMs + LEASE_MARGIN_MS);
    if (!claimed) return { kind: 'skipped', reason: 'attempt already made, delivery not pending, or endpoint deleted' };
    if (!isWebhookEventName(claimed.event)) throw new Error(`delivery ${deliveryId} carries unknown event ${claimed.event}`);
    const outcome = await deps.deliverer.deliver({
      url: claimed.url,
      deliveryId,
      event: claimed.event,
      body: claimed.body,
      secrets: deps.endpoints.openSecret(claimed.secretSealed),
    });
    const delivered = outcome.result === 'delivered';
    const retryAt = delivered
      ? null
      : nextAttemptAt(attempt, new Date(), deps.random ?? Math.random, { baseDelayMs: deps.settings.retryBaseDelayMs });
    const status = delivered ? 'delivered' : retryAt ? 'pending' : 'given_up';
    await deps.deliveries.record(
      deliveryId,
      attempt,
      {
        startedAt: outcome.startedAt,
        durationMs: outcome.durationMs,
        result: outcome.result,
        httpStatus: outcome.status,
        error: storable(outcome.error),
        responseExcerpt: storable(outcome.responseExcerpt),
      },
      { status, nextAttemptAt: retryAt },
    );
    webhookDeliveries.inc({ outcome: status === 'pending' ? 'retry' : status });
    if (retryAt) {
      const next = { deliveryId, endpointId, attempt: attempt + 1 };
      await enqueueJob(deps.queues, { name: 'deliver-webhook', data: next }, { delayMs: retryAt.getTime() - Date.now() }).catch(
        (error: unknown) =>
          deps.logger.warn({ deliveryId, error: (error as Error).message }, 'next attempt not enqueued; the sweep re-drives it'),
      );
    }
    if (status === 'given_up') deps.logger.warn({ deliveryId, attempt, result: outcome.result }, 'webhook delivery given up');
    return { kind: 'attempted', result: outcome.result, status };
  } finally {
    deps.limiter.release(endpointId);
  }
}
