// The JSON of webhook endpoints and deliveries, and the delivery list's query.
import type { DeliveryLogRecord, WebhookEndpointRecord } from '@talao/persistence';
import { WEBHOOK_DELIVERY_STATUSES } from '@talao/persistence';
import { WEBHOOK_EVENTS } from '@talao/webhooks';
import { z } from 'zod';
import { pageEnvelope } from '../http/pagination.js';
import { listQuery } from '../http/query-validation.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The secret is never part of it. */
export function presentEndpoint(endpoint: WebhookEndpointRecord) {
  return { id: endpoint.id, url: endpoint.url, events: endpoint.events, created_at: endpoint.createdAt.toISOString() };
}

export function presentDelivery(delivery: DeliveryLogRecord) {
  return {
    id: delivery.id,
    webhook_id: delivery.endpointId,
    event: delivery.event,
    event_id: delivery.eventId,
    invoice_id: delivery.invoiceId,
    status: delivery.status,
    attempt_count: delivery.attempts,
    next_attempt_at: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
    last_attempt_at: iso(delivery.lastAttemptAt),
    delivered_at: iso(delivery.deliveredAt),
    given_up_at: iso(delivery.givenUpAt),
    created_at: delivery.createdAt.toISOString(),
    attempts: delivery.attemptLog.map((attempt) => ({
      number: attempt.number,
      started_at: attempt.startedAt.toISOString(),
      duration_ms: attempt.durationMs,
      result: attempt.result,
      response_status: attempt.httpStatus,
      error: attempt.error,
      response_excerpt: attempt.responseExcerpt,
    })),
  };
}

const deliveryQuery = listQuery(
  {
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
    event: z.enum(WEBHOOK_EVENTS).optional(),
    webhook_id: z.uuid().optional(),
    invoice_id: z.uuid().optional(),
  },
  {
    status: { expected: `one of: ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` },
    event: { expected: `one of: ${WEBHOOK_EVENTS.join(', ')}` },
    webhook_id: { expected: 'a webhook id (UUID)' },
    invoice_id: { expected: 'an invoice id (UUID)' },
  },
);

export type DeliveryQuery = z.output<typeof deliveryQuery.schema>;

export const parseDeliveryQuery = deliveryQuery.parse;

/** The list envelope of GET /invoices, for deliveries. */
export function deliveryPage(total: number, query: DeliveryQuery, data: DeliveryLogRecord[]) {
  return pageEnvelope(total, query, data.map(presentDelivery));
}
