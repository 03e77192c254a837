// Queue depth for /metrics: each app names the BullMQ queues it holds, and a scrape reads their counts from Redis
// (one round trip per queue, bounded in time) — nothing is counted on the hot path.
import { Gauge } from 'prom-client';
import { metricsRegistry } from './metrics.js';

export const DEPTH_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** The part of a BullMQ Queue read at scrape time. */
export interface QueueDepthSource {
  readonly name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

const SCRAPE_TIMEOUT_MS = 1_000;
/** By queue name: two Queue objects of one name (two features of the gateway) count once. */
const watched = new Map<string, QueueDepthSource>();

export const queueJobs = new Gauge({
  name: 'talao_queue_jobs',
  help: 'Jobs in a queue by state (waiting, active, delayed, failed), read from Redis at scrape time',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  collect: () => collectQueueDepth(),
});

/** Reports `queue`'s depth on every scrape until the returned function is called (on close). */
export function watchQueueDepth(queue: QueueDepthSource): () => void {
  watched.set(queue.name, queue);
  return () => {
    if (watched.get(queue.name) === queue) watched.delete(queue.name);
  };
}

/** Reads the counts of every watched queue into talao_queue_jobs; a queue Redis cannot answer keeps its last values. */
async function collectQueueDepth(): Promise<void> {
  await Promise.all(
    [...watched.values()].map(async (queue) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const counts = await Promise.race([
          queue.getJobCounts(...DEPTH_STATES),
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), SCRAPE_TIMEOUT_MS))),
        ]);
        for (const state of DEPTH_STATES) queueJobs.set({ queue: queue.name, state }, counts[state] ?? 0);
      } catch {
        // Redis away: the readiness probe says so; the scrape still answers with the rest.
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
