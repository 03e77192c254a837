// The canceller's sweeper: an amendment or a range still `pending` long after it was filed has no live job (Redis
// refused the enqueue, or the job gave up after its tries or stalls — a worker killed twice in the middle of it). It
// is enqueued again with the same jobId; an ended job of it is removed first, since BullMQ keeps its id.
import type { PrismaClient } from '@talao/persistence';
import { enqueueReplacingEnded, type Job } from '@talao/queue-contracts';
import type { AmendmentQueuePort } from '../create/ports.js';

export interface SweepPendingDeps {
  prisma: PrismaClient;
  queue: AmendmentQueuePort;
  logger: { info(fields: Record<string, unknown>, message: string): void };
}

export interface SweepPendingSettings {
  staleAfterMs: number;
  limit?: number;
}

export async function sweepPendingAmendments(deps: SweepPendingDeps, settings: SweepPendingSettings): Promise<number> {
  const before = new Date(Date.now() - settings.staleAfterMs);
  const limit = settings.limit ?? 200;
  const [amendments, invalidations] = await Promise.all([
    deps.prisma.amendment.findMany({ where: { status: 'pending', updatedAt: { lt: before } }, select: { id: true }, take: limit }),
    deps.prisma.invalidation.findMany({ where: { status: 'pending', updatedAt: { lt: before } }, select: { id: true }, take: limit }),
  ]);
  const jobs: Job[] = [
    ...amendments.map(({ id }) => ({ name: 'amend' as const, data: { amendmentId: id } })),
    ...invalidations.map(({ id }) => ({ name: 'invalidate' as const, data: { invalidationId: id } })),
  ];
  let redriven = 0;
  for (const job of jobs) if ((await enqueueReplacingEnded(deps.queue, job)) !== 'live') redriven += 1;
  if (redriven > 0) deps.logger.info({ redriven }, 'pending amendments enqueued again');
  return redriven;
}
