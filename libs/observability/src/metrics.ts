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

export const httpRequests = new Counter({
  name: 'talao_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'talao_http_request_duration_seconds',
  help: 'Time from the request to the end of the response, by method, route template and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const queueJobWait = new Histogram({
  name: 'talao_queue_job_wait_seconds',
  help: 'Time a job waited in its queue before a worker took it (first attempt, after any delay)',
  labelNames: ['queue', 'job'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const queueJobProcessing = new Histogram({
  name: 'talao_queue_job_processing_seconds',
  help: 'Time a worker spent on one attempt of a job, by outcome (completed, retry, failed)',
  labelNames: ['queue', 'job', 'outcome'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const authorizerCallDuration = new Histogram({
  name: 'talao_authorizer_call_duration_seconds',
  help: 'Time of one call to an authorizer (SEFAZ or the NFS-e national environment), by operation and authorizer',
  labelNames: ['operation', 'authorizer'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const authorizerCalls = new Counter({
  name: 'talao_authorizer_calls_total',
  help: 'Calls to an authorizer by operation, authorizer (state or national environment), outcome and status code',
  labelNames: ['operation', 'authorizer', 'outcome', 'code'] as const,
  registers: [metricsRegistry],
});

export const documentsIssued = new Counter({
  name: 'talao_documents_issued_total',
  help: 'Documents authorized, by document type (nfe, nfse) and environment',
  labelNames: ['document_type', 'environment'] as const,
  registers: [metricsRegistry],
});

export const documentsRejected = new Counter({
  name: 'talao_documents_rejected_total',
  help: 'Documents rejected by the authorizer, by document type, environment and rejection code',
  labelNames: ['document_type', 'environment', 'code'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'talao_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (delivered, retry, given_up)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const pdfRenderDuration = new Histogram({
  name: 'talao_pdf_render_duration_seconds',
  help: 'Time to render one DANFE or DANFSe to PDF, by document type',
  labelNames: ['document_type'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const receivedSyncBlockedUntil = new Gauge({
  name: 'talao_received_sync_blocked_until_seconds',
  help: "Unix time until which the authority's cap (137 nothing new, 656 consumo indevido) holds a company's distribution sync; 0 when not held",
  labelNames: ['company_id', 'environment', 'channel', 'code'] as const,
  registers: [metricsRegistry],
});

/** Seconds since `startNs` (a process.hrtime.bigint() reading). */
export function secondsSince(startNs: bigint): number {
  return Number(process.hrtime.bigint() - startNs) / 1e9;
}
