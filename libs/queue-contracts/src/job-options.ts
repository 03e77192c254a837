// Retry, backoff and retention per queue in one table; each value can be overridden by an environment variable
// `QUEUE_<QUEUE>_<SETTING>` (e.g. QUEUE_ISSUANCE_ATTEMPTS=8, QUEUE_ISSUANCE_BACKOFF_MS=2000).
import { QUEUE_NAMES, type QueueName } from './queue-names.js';

export interface QueueJobOptions {
  /** Total tries of a job (the first one included). */
  readonly attempts: number;
  /** First backoff delay; doubles on each retry (exponential). */
  readonly backoffMs: number;
  /** Completed jobs kept for inspection; older ones are removed. */
  readonly keepCompleted: number;
  /** Failed jobs kept. */
  readonly keepFailed: number;
}

export const DEFAULT_JOB_OPTIONS: Readonly<Record<QueueName, QueueJobOptions>> = {
  // 6 tries, 1 s doubling: about 30 s of an authorizer's outage before the invoice is decided (failed or SVC).
  [QUEUE_NAMES.issuance]: { attempts: 6, backoffMs: 1_000, keepCompleted: 1_000, keepFailed: 5_000 },
  [QUEUE_NAMES.amendments]: { attempts: 6, backoffMs: 1_000, keepCompleted: 1_000, keepFailed: 5_000 },
  [QUEUE_NAMES.received]: { attempts: 3, backoffMs: 30_000, keepCompleted: 100, keepFailed: 1_000 },
  [QUEUE_NAMES.pdf]: { attempts: 3, backoffMs: 2_000, keepCompleted: 1_000, keepFailed: 1_000 },
  [QUEUE_NAMES.webhooks]: { attempts: 10, backoffMs: 5_000, keepCompleted: 1_000, keepFailed: 10_000 },
};

const SETTINGS: ReadonlyArray<[keyof QueueJobOptions, string]> = [
  ['attempts', 'ATTEMPTS'],
  ['backoffMs', 'BACKOFF_MS'],
  ['keepCompleted', 'KEEP_COMPLETED'],
  ['keepFailed', 'KEEP_FAILED'],
];

export class QueueOptionsError extends Error {
  override readonly name = 'QueueOptionsError';
}

/** The table's options for a queue with the environment's overrides applied; a malformed override throws. */
export function jobOptionsFor(queue: QueueName, env: Readonly<Record<string, string | undefined>> = process.env): QueueJobOptions {
  const options: Record<string, number> = { ...DEFAULT_JOB_OPTIONS[queue] };
  for (const [key, suffix] of SETTINGS) {
    const variable = `QUEUE_${queue.toUpperCase()}_${suffix}`;
    const raw = env[variable]?.trim();
    if (!raw) continue;
    if (!/^\d+$/.test(raw) || (key === 'attempts' && Number(raw) < 1))
      throw new QueueOptionsError(`${variable} must be a ${key === 'attempts' ? 'positive' : 'non-negative'} integer`);
    options[key] = Number(raw);
  }
  return options as unknown as QueueJobOptions;
}

/** The same options in BullMQ's shape (`defaultJobOptions` of a Queue, or the options of `add`). */
export function bullJobOptions(options: QueueJobOptions) {
  return {
    attempts: options.attempts,
    backoff: { type: 'exponential' as const, delay: options.backoffMs },
    removeOnComplete: { count: options.keepCompleted },
    removeOnFail: { count: options.keepFailed },
  };
}
