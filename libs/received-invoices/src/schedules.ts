// One BullMQ job scheduler per company and environment: a stable id (so a reconcile upserts, never duplicates), an
// interval (RECEIVED_SYNC_INTERVAL_MS, one hour by default: the authority answers at most hourly for a tax id with
// nothing new) and an offset derived from the company id, so thousands of companies spread over the interval instead
// of firing together, and the same company keeps its slot from one reconcile to the next.
import { createHash } from 'node:crypto';
import type { EnvironmentName } from '@talao/persistence';

export interface SchedulerQueue {
  upsertJobScheduler(
    id: string,
    repeat: { every: number; offset?: number },
    template: { name: string; data: unknown; opts?: Record<string, unknown> },
  ): Promise<unknown>;
  getJobSchedulers(start?: number, end?: number): Promise<Array<{ key: string; id?: string | null }>>;
  removeJobScheduler(id: string): Promise<boolean>;
}

/** The companies and environments that should be collected: an active certificate and an API key of that environment. */
export interface SchedulingSource {
  scheduledCompanies(): Promise<Array<{ companyId: string; environment: EnvironmentName }>>;
}

// Short: BullMQ repeats the id in about eight places per company (scheduler hash and key, the next job's id, key and
// fields, the repeat and delayed sets), so every character costs ~8 bytes of Redis per company.
const PREFIX = 'rs-';

export function schedulerIdOf(companyId: string, environment: EnvironmentName): string {
  return `${PREFIX}${companyId}-${environment === 'production' ? 'p' : 'h'}`;
}

/** A stable point in [0, intervalMs) for this company and environment. */
export function offsetOf(companyId: string, environment: EnvironmentName, intervalMs: number): number {
  const digest = createHash('sha256').update(`${companyId}:${environment}`).digest();
  return digest.readUInt32BE(0) % Math.max(1, intervalMs);
}

export async function reconcileSchedules(
  queue: SchedulerQueue,
  source: SchedulingSource,
  settings: { intervalMs: number },
): Promise<{ upserted: number; removed: number }> {
  const wanted = await source.scheduledCompanies();
  const ids = new Set<string>();
  for (const { companyId, environment } of wanted) {
    const id = schedulerIdOf(companyId, environment);
    ids.add(id);
    await queue.upsertJobScheduler(
      id,
      { every: settings.intervalMs, offset: offsetOf(companyId, environment, settings.intervalMs) },
      { name: 'sync-received', data: { companyId, environment }, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
  }
  let removed = 0;
  for (const scheduler of await queue.getJobSchedulers(0, -1)) {
    const id = scheduler.id ?? scheduler.key;
    if (id.startsWith(PREFIX) && !ids.has(id)) removed += (await queue.removeJobScheduler(id)) ? 1 : 0;
  }
  return { upserted: ids.size, removed };
}
