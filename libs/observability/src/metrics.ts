// Prometheus metrics (prom-client): the one registry of the process and the catalogue of the platform's series, so
// every app exposes the same names and docs/architecture.md "Observability" lists them in one place. prom-client,
// not OpenTelemetry's Prometheus exporter: it needs no SDK (metrics stay on when tracing is off, and the OTel SDK
// stays unloaded), a sample is one Map lookup and an addition on the hot path, and the text is served on the port each
// app already has instead of a second HTTP server.
//
// Labels are bounded sets (route templates, queue and job names, authorizer states and status codes, outcomes); the
// one per-company series is the received-sync cap state, one row per company with a certificate.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();
export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

let processMetricsOn = false;
/** CPU, memory, event-loop delay and GC of this process (Node's own counters; once per process). */
export function collectProcessMetrics(): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const scrapeCollectors = new Set<() => Promise<void>>();

/**
 * Runs `collect` before every scrape (a read of state held elsewhere, such as a database), until the returned function
 * is called. A collector that fails leaves its series as they were; the scrape answers anyway.
 */
export function onScrape(collect: () => Promise<void>): () => void {
  scrapeCollectors.add(collect);
  return () => scrapeCollectors.delete(collect);
}

/** The Prometheus text of every series of this process. */
export async function renderMetrics(): Promise<string> {
  await Promise.all([...scrapeCollectors].map((collect) => collect().catch(() => undefined)));
  return metricsRegistry.metrics();
}

/** A counter of the catalogue, in the process's registry. */
function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A duration of the catalogue: a histogram of seconds over SECONDS' buckets, in the process's registry. */
function duration<L extends string>(name: string, help: string, labelNames: readonly L[]): Histogram<L> {
  return new Histogram({ name, help, labelNames, buckets: SECONDS, registers: [metricsRegistry] });
}

/** A gauge of the catalogue, in the process's registry. */
function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return new Gauge({ name, help, labelNames, registers: [metricsRegistry] });
}

export const httpRequests = counter('talao_http_requests_total', 'HTTP requests answered, by method, route template and status code', [
  'method',
  'route',
  'status',
]);

export const httpRequestDuration = duration(
  'talao_http_request_duration_seconds',
  'Time from the request to the end of the response, by method, route template and status class',
  ['method', 'route', 'status_class'],
);

export const queueJobWait = duration(
  'talao_queue_job_wait_seconds',
  'Time a job waited in its queue before a worker took it (first attempt, after any delay)',
  ['queue', 'job'],
);

export const queueJobProcessing = duration(
  'talao_queue_job_processing_seconds',
  'Time a worker spent on one attempt of a job, by outcome (completed, retry, failed)',
  ['queue', 'job', 'outcome'],
);

export const authorizerCallDuration = duration(
  'talao_authorizer_call_duration_seconds',
  'Time of one call to an authorizer (SEFAZ or the NFS-e national environment), by operation and authorizer',
  ['operation', 'authorizer'],
);

export const authorizerCalls = counter(
  'talao_authorizer_calls_total',
  'Calls to an authorizer by operation, authorizer (state or national environment), outcome and status code',
  ['operation', 'authorizer', 'outcome', 'code'],
);

export const documentsIssued = counter(
  'talao_documents_issued_total',
  'Documents authorized, by document type (nfe, nfse) and environment',
  ['document_type', 'environment'],
);

export const documentsRejected = counter(
  'talao_documents_rejected_total',
  'Documents rejected by the authorizer, by document type, environment and rejection code',
  ['document_type', 'environment', 'code'],
);

export const webhookDeliveries = counter(
  'talao_webhook_deliveries_total',
  'Webhook delivery attempts by outcome (delivered, retry, given_up)',
  ['outcome'],
);

export const pdfRenderDuration = duration(
  'talao_pdf_render_duration_seconds',
  'Time to render one DANFE or DANFSe to PDF, by document type',
  ['document_type'],
);

export const receivedSyncBlockedUntil = gauge(
  'talao_received_sync_blocked_until_seconds',
  "Unix time until which the authority's cap (137 nothing new, 656 consumo indevido) holds a company's distribution sync; 0 when not held",
  ['company_id', 'environment', 'channel', 'code'],
);

/** Seconds since `startNs` (a process.hrtime.bigint() reading). */
export function secondsSince(startNs: bigint): number {
  return Number(process.hrtime.bigint() - startNs) / 1e9;
}
