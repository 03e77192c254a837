// Manifestations still pending with no live job (Redis lost, a gateway that could not enqueue) are enqueued again by
// received-sync's periodic task: PostgreSQL, not Redis, is the record. jobId = the row's id, so a job still waiting
// or running makes the enqueue a no-op; one that gave up is removed first (its outcome may still be unknown).
import type { ReceivedManifestationsRepository } from '@talao/persistence';
import { enqueueManifestation, type ManifestationQueuePort } from './manifest/request-manifestation.js';

export async function redrivePendingManifestations(
  manifestations: Pick<ReceivedManifestationsRepository, 'stalePending'>,
  queue: ManifestationQueuePort,
  settings: { staleAfterMs: number },
  now = new Date(),
): Promise<number> {
  const ids = await manifestations.stalePending(new Date(now.getTime() - settings.staleAfterMs));
  let enqueued = 0;
  for (const id of ids) if (await enqueueManifestation({ queue }, { id })) enqueued += 1;
  return enqueued;
}
