// Re-drives deliveries from PostgreSQL (invariant 1): a pending delivery whose next try is overdue by more than the
// grace has lost its job — a Redis flush, a dispatcher killed after the relay's commit or in the middle of an attempt
// (the claim's lease ran out). Each is enqueued again under a new job id; the claim keeps a duplicate from sending twice.
import type { DispatcherDeps } from './dispatcher-deps.js';
import { enqueueDeliveries } from './enqueue-deliveries.js';

export async function sweepDeliveries(deps: DispatcherDeps): Promise<number> {
  const overdue = await deps.deliveries.listOverdue(deps.settings.sweepGraceMs, deps.settings.sweepBatchSize);
  const redrive = Date.now();
  const failed = await enqueueDeliveries(
    deps.queues,
    overdue.map((delivery) => ({ deliveryId: delivery.id, endpointId: delivery.endpointId, attempt: delivery.attempts + 1, redrive })),
  );
  if (failed > 0) throw new Error(`${failed} overdue webhook deliveries not re-driven (Redis unavailable?)`);
  if (overdue.length > 0) deps.logger.info({ count: overdue.length }, 'overdue webhook deliveries re-driven');
  return overdue.length;
}
