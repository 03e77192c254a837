// The JSON of webhook endpoints and deliveries, and the delivery list's query.
import type { DeliveryLogRecord, WebhookEndpointRecord } from '@talao/persistence';
import { WEBHOOK_DELIVERY_STATUSES } from '@talao/persistence';
import { WEBHOOK_EVENTS } from '@talao/webhooks';
import { z } from 'zod';
import { parseQuery, type QueryParsed } from '../invoices/query-parameters.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

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

const pageNumber = (fallback: number, max?: number) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/)
    .transform(Number)
    .pipe(max ? z.number().int().min(1).max(max) : z.number().int().min(1))
    .optional()
    .transform((v) => v ?? fallback);

const deliveryQuerySchema = z.strictObject({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  event: z.enum(WEBHOOK_EVENTS).optional(),
  webhook_id: z.uuid().optional(),
  invoice_id: z.uuid().optional(),
  page: pageNumber(1),
  page_size: pageNumber(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
});

const DELIVERY_PARAMETERS = {
  status: { expected: `one of: ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` },
  event: { expected: `one of: ${WEBHOOK_EVENTS.join(', ')}` },
  webhook_id: { expected: 'a webhook id (UUID)' },
  invoice_id: { expected: 'an invoice id (UUID)' },
  page: { expected: 'an integer ≥ 1' },
  page_size: { expected: `an integer from 1 to ${MAX_PAGE_SIZE}` },
};

export type DeliveryQuery = z.output<typeof deliveryQuerySchema>;

export function parseDeliveryQuery(query: unknown): QueryParsed<DeliveryQuery> {
  return parseQuery(deliveryQuerySchema, DELIVERY_PARAMETERS, query);
}

/** The list envelope of GET /invoices, for deliveries. */
export function deliveryPage(total: number, query: DeliveryQuery, data: DeliveryLogRecord[]) {
  const totalPages = Math.ceil(total / query.page_size);
  return {
    total,
    total_pages: totalPages,
    page: query.page,
    page_size: query.page_size,
    next_page: query.page < totalPages ? query.page + 1 : null,
    prev_page: query.page > 1 ? Math.min(query.page - 1, Math.max(totalPages, 1)) : null,
    data: data.map(presentDelivery),
  };
}
