// The outbox relay: every unpublished outbox event becomes one delivery per registered endpoint of its company and
// environment that subscribes to it, in the transaction that marks the event published (so an event is never lost
// between the two), then each new delivery's first attempt is enqueued (one addBulk per step). Enqueueing after the commit may fail (Redis
// away, the dispatcher killed): the delivery is in PostgreSQL and the sweep (sweep-deliveries.ts) enqueues it later.
import { withTraceParent } from '@talao/observability';
import type { PlannedDelivery, RelayEndpoint, RelayEvent } from '@talao/persistence';
import { endpointReceives, isWebhookEventName } from '../events/event-names.js';
import { eventBody } from '../events/event-payload.js';
import type { DispatcherDeps } from './dispatcher-deps.js';
import { enqueueDeliveries } from './enqueue-deliveries.js';

/**
 * The deliveries of a batch of outbox events. Any event named in WEBHOOK_EVENTS about an invoice is delivered, whatever
 * wrote it (issuance, cancellation, correction); other outbox events (invoice.failed, contingency) are internal and
 * only marked published. The body is fixed here, so every retry sends the same bytes.
 */
export function planDeliveries(events: readonly RelayEvent[], endpoints: readonly RelayEndpoint[]): PlannedDelivery[] {
  const planned: PlannedDelivery[] = [];
  for (const event of events) {
    const name = event.type;
    if (!isWebhookEventName(name) || !event.invoice) continue;
    const subscribers = endpoints.filter(
      (endpoint) =>
        endpoint.companyId === event.companyId && endpoint.environment === event.environment && endpointReceives(endpoint.events, name),
    );
    if (subscribers.length === 0) continue;
    const { invoice } = event;
    // The key the event reported (the state it was written with), else the invoice's: an NFS-e keeps its DPS id until
    // authorized. A rejected attempt has none to report (SPEC.md): `invoice_id` identifies it.
    const reported = event.payload['access_key'];
    const accessKey = typeof reported === 'string' && reported ? reported : (invoice.accessKey ?? invoice.dpsId ?? '');
    const body = eventBody({
      id: event.id,
      event: name,
      createdAt: event.createdAt,
      invoice: {
        invoiceId: invoice.id,
        documentType: invoice.documentType,
        ...(name !== 'invoice.rejected' && { accessKey }),
        amount: invoice.amount,
      },
    });
    for (const endpoint of subscribers) planned.push({ event, endpointId: endpoint.id, body });
  }
  return planned;
}

/** Relays until the outbox has no unpublished event left (or `maxSteps` batches); answers the deliveries created. */
export async function relayOutbox(deps: DispatcherDeps, maxSteps = 20): Promise<number> {
  let created = 0;
  for (let step = 0; step < maxSteps; step++) {
    const { events, deliveries } = await deps.deliveries.relay(deps.settings.relayBatchSize, planDeliveries);
    created += deliveries.length;
    // One addBulk per trace the deliveries belong to (each in the trace of the run that wrote its event, so the queue
    // carries it on to the delivery); with tracing off every traceParent is null: one addBulk for the batch.
    const byTrace = new Map<string | null, typeof deliveries>();
    for (const delivery of deliveries) {
      const group = byTrace.get(delivery.traceParent);
      if (group) group.push(delivery);
      else byTrace.set(delivery.traceParent, [delivery]);
    }
    let failed = 0;
    for (const [traceParent, group] of byTrace)
      failed += await withTraceParent(traceParent, () =>
        enqueueDeliveries(
          deps.queues,
          group.map((delivery) => ({ deliveryId: delivery.id, endpointId: delivery.endpointId, attempt: 1 })),
        ),
      );
    if (failed > 0) deps.logger.warn({ failed }, 'webhook deliveries not enqueued; the sweep re-drives them from PostgreSQL');
    if (events < deps.settings.relayBatchSize) break;
  }
  return created;
}
