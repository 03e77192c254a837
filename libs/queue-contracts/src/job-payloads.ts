// Payload schemas: a job's data is checked when it is enqueued and again when a worker takes it, so a payload
// written by an older or newer release fails loudly instead of reaching a handler with the wrong shape.
import { z } from 'zod';
import { QUEUE_NAMES } from './queue-names.js';

export const issuePayloadSchema = z.object({
  invoiceId: z.uuid(),
});

/**
 * One attempt of a webhook delivery (apps/webhook-dispatcher). `attempt` is the attempt's number, so a duplicate job
 * for an attempt already made is a no-op; `redrive` tells apart a job re-driven from PostgreSQL (a sweep, a deferral,
 * a retry requested) from the one first enqueued, whose id BullMQ may still keep.
 */
export const deliverWebhookPayloadSchema = z.object({
  deliveryId: z.uuid(),
  endpointId: z.uuid(),
  attempt: z.number().int().min(1),
  redrive: z.number().int().min(0).optional(),
});

/**
 * Render (or confirm stored) the DANFE / DANFSe of an invoice at a version (documents-pdf's pdfVersionOf: layout
 * revision, status, updated_at). The version is in the jobId, so a cancellation enqueues a new job, not a no-op.
 */
export const renderPdfPayloadSchema = z.object({
  invoiceId: z.uuid(),
  version: z.string().regex(/^[a-z0-9.-]{1,80}$/),
});

/** An event filed on an issued document (cancellation, CC-e): the amendment row is the business id. */
export const amendPayloadSchema = z.object({
  amendmentId: z.uuid(),
});

/** An NF-e numbering range reported as unused (inutilização): the invalidation row is the business id. */
export const invalidatePayloadSchema = z.object({
  invalidationId: z.uuid(),
});

/** One distribution sync of a company in one environment (scheduled or asked for by POST /received-invoices/sync). */
export const syncReceivedPayloadSchema = z.object({
  companyId: z.uuid(),
  environment: z.enum(['homologation', 'production']),
});

/** A recipient's manifestation on a received NF-e (apps/received-sync): the manifestation row is the business id. */
export const manifestPayloadSchema = z.object({
  manifestationId: z.uuid(),
});

/** Every job of the platform: name → queue and payload schema. A handler receives exactly its payload type. */
export const JOB_DEFINITIONS = {
  issue: { queue: QUEUE_NAMES.issuance, schema: issuePayloadSchema },
  'deliver-webhook': { queue: QUEUE_NAMES.webhooks, schema: deliverWebhookPayloadSchema },
  'render-pdf': { queue: QUEUE_NAMES.pdf, schema: renderPdfPayloadSchema },
  amend: { queue: QUEUE_NAMES.amendments, schema: amendPayloadSchema },
  invalidate: { queue: QUEUE_NAMES.amendments, schema: invalidatePayloadSchema },
  'sync-received': { queue: QUEUE_NAMES.received, schema: syncReceivedPayloadSchema },
  manifest: { queue: QUEUE_NAMES.received, schema: manifestPayloadSchema },
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
    case 'deliver-webhook':
      // BullMQ refuses ':' in a custom id.
      return `${job.data.deliveryId}-a${job.data.attempt}${job.data.redrive === undefined ? '' : `-r${job.data.redrive}`}`;
    case 'render-pdf':
      // BullMQ refuses ':' in a custom id.
      return `pdf.${job.data.invoiceId}.${job.data.version}`;
    case 'amend':
      return job.data.amendmentId;
    case 'invalidate':
      return job.data.invalidationId;
    // Stable per company and environment; producers add BullMQ deduplication on it (a completed sync stays in the
    // queue's history, so a plain jobId would make the next sync a no-op).
    case 'sync-received':
      return `received-${job.data.companyId}-${job.data.environment}`;
    case 'manifest':
      return job.data.manifestationId;
  }
}
