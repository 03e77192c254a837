// Payload schemas: a job's data is checked when it is enqueued and again when a worker takes it, so a payload
// written by an older or newer release fails loudly instead of reaching a handler with the wrong shape.
import { z } from 'zod';
import { QUEUE_NAMES } from './queue-names.js';

export const issuePayloadSchema = z.object({
  invoiceId: z.uuid(),
});

/** One distribution sync of a company in one environment (scheduled or asked for by POST /received-invoices/sync). */
export const syncReceivedPayloadSchema = z.object({
  companyId: z.uuid(),
  environment: z.enum(['homologation', 'production']),
});

/** Every job of the platform: name → queue and payload schema. A handler receives exactly its payload type. */
export const JOB_DEFINITIONS = {
  issue: { queue: QUEUE_NAMES.issuance, schema: issuePayloadSchema },
  'sync-received': { queue: QUEUE_NAMES.received, schema: syncReceivedPayloadSchema },
} as const;

export type JobName = keyof typeof JOB_DEFINITIONS;
export type JobPayload<N extends JobName> = z.output<(typeof JOB_DEFINITIONS)[N]['schema']>;
/** The typed union of jobs `{ name, data }`. */
export type Job = { [N in JobName]: { name: N; data: JobPayload<N> } }[JobName];

export const JOB_NAMES = Object.keys(JOB_DEFINITIONS) as JobName[];

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_DEFINITIONS, name);
}

/** Parses a job's data for its name; throws a ZodError naming the bad field. */
export function parseJobPayload<N extends JobName>(name: N, data: unknown): JobPayload<N> {
  return JOB_DEFINITIONS[name].schema.parse(data) as JobPayload<N>;
}

/** The jobId: the business id, so a second enqueue of the same work is a no-op in BullMQ. */
export function jobIdOf(job: Job): string {
  switch (job.name) {
    case 'issue':
      return job.data.invoiceId;
    // Stable per company and environment; producers add BullMQ deduplication on it (a completed sync stays in the
    // queue's history, so a plain jobId would make the next sync a no-op).
    case 'sync-received':
      return `received-${job.data.companyId}-${job.data.environment}`;
  }
}
