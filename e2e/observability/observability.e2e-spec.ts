// Traces and metrics across real processes (issue 21): gateway, issuer, canceller, webhook dispatcher, received-sync,
// mcp and (with Chromium) the pdf-renderer on the run's PostgreSQL and Redis, the authorizer simulator, tracing on
// with an in-test OTLP receiver. One issuance must make one trace from the gateway's request through the queue to the
// issuer's authorizer call, and on through the outbox to the webhook delivery; every app's /metrics must expose the
// series docs/architecture.md "Observability" names, with the samples this run caused.
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startWebhookReceiver, type WebhookReceiver } from '@talao/webhooks/testing';
import { rejectedNfe } from '../contract/support/contract.js';
import { type Platform, startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { installedChromium } from '../support/installed-chromium.js';
import { deliveries, register, waitFor } from '../webhooks/support.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';

jest.setTimeout(240_000);

const SERVER = 2;
const CLIENT = 3;
const chromium = installedChromium() !== undefined;

let otlp: OtlpReceiver;
let webhooks: WebhookReceiver;
let p: Platform;
let company: TestCompany;
let issued: Record<string, unknown>;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  webhooks = await startWebhookReceiver();
  // Tracing on, exported as OTLP/JSON, batches sent every 100 ms (the default 5 s would only slow the test).
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' };
  p = await startPlatform('observability', {
    issuerEnv: tracing,
    gatewayEnv: { ...tracing, ISSUE_WAIT_MS: '8000' },
    webhookDispatcherEnv: tracing,
    canceller: true,
    cancellerEnv: tracing,
    ...(chromium && { pdfRendererEnv: tracing }),
  });
  await p.startExtraApp('received-sync', { ...tracing, RECEIVED_SYNC_ENABLED: 'false' });
  await p.startExtraApp('mcp', tracing);
  company = await p.createCompany();
  expect((await register(p, company, `${webhooks.origin}/hook`, ['invoice.authorized'])).status).toBe(201);
  const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
  expect(created.status).toBe(201);
  issued = created.body;
  // And one the authorizer refuses (cStat 778): the gateway answers 502 with the authorizer's code.
  expect((await rejectedNfe(p, company)).status).toBe(502);
});

afterAll(async () => {
  await p?.stop();
  await webhooks?.close();
  await otlp?.close();
});

/** Spans whose parent is not (yet) among `spans`. */
function orphansOf(spans: ReceivedSpan[]): ReceivedSpan[] {
  const ids = new Set(spans.map((span) => span.spanId));
  return spans.filter((span) => span.parentSpanId !== '' && !ids.has(span.parentSpanId));
}

/** The dispatcher's POST to the test's webhook receiver (undici's client span). */
const webhookCall = (span: ReceivedSpan) => String(span.attributes['url.full'] ?? span.attributes['url.path'] ?? '').includes('/hook');

const spansOf = (traceId: string) => otlp.spans.filter((span) => span.traceId === traceId);
const describeTrace = (spans: ReceivedSpan[]) => spans.map((s) => `${s.service}: ${s.name} (kind ${s.kind})`).join('\n');

describe('one trace per issuance', () => {
  it('crosses the gateway, the queue, the issuer and its authorizer call, then the outbox and the webhook delivery', async () => {
    const invoiceId = String(issued['invoice_id']);
    // The issuer's authorizer span names the invoice: its trace is the issuance's.
    const authorizerCall = await waitFor('the authorizer call span', () =>
      otlp.spans.find((span) => span.name === 'authorizer NFeAutorizacao4' && span.attributes['talao.invoice.id'] === invoiceId),
    );
    expect(authorizerCall.service).toBe('issuer');
    expect(authorizerCall.attributes).toMatchObject({ 'talao.authorizer.outcome': 'authorized', 'talao.authorizer.code': '100' });
    const traceId = authorizerCall.traceId;

    await waitFor('the delivery', async () => (await deliveries(p, company)).find((d) => d.status === 'delivered'));
    const trace = await waitFor('every process of the trace, every span with its parent', () => {
      const spans = spansOf(traceId);
      const services = new Set(spans.map((span) => span.service));
      const delivered = spans.some((span) => span.service === 'webhook-dispatcher' && span.kind === CLIENT && webhookCall(span));
      return ['gateway', 'issuer', 'webhook-dispatcher'].every((service) => services.has(service)) &&
        delivered &&
        orphansOf(spans).length === 0
        ? spans
        : undefined;
    }).catch((error: Error) => {
      throw new Error(`${error.message}; trace ${traceId} has:\n${describeTrace(spansOf(traceId))}`);
    });

    // The gateway's request is the root: the HTTP server span of POST /api/v1/invoices.
    const root = trace.find((span) => span.parentSpanId === '');
    expect(root).toMatchObject({ service: 'gateway', kind: SERVER });
    expect(String(root!.attributes['http.route'] ?? root!.name)).toContain('/api/v1/invoices');
    // The authorizer call is an HTTP client span to the simulator, under the authorizer span.
    const simulatorPort = Number(new URL(p.sim.baseUrl).port);
    const toSimulator = trace.filter(
      (span) => span.service === 'issuer' && span.kind === CLIENT && span.attributes['server.port'] === simulatorPort,
    );
    if (!toSimulator.some((span) => span.parentSpanId === authorizerCall.spanId)) {
      const issuerSpans = trace.filter((span) => span.service === 'issuer');
      throw new Error(
        `no HTTP client span to the simulator under ${authorizerCall.spanId}:\n${issuerSpans.map((s) => `${s.name} ${s.kind} ${s.spanId}<${s.parentSpanId} ${JSON.stringify(s.attributes)}`).join('\n')}`,
      );
    }
    // One root: nothing on the way started a trace of its own that merely shares the id.
    expect(trace.filter((span) => span.parentSpanId === '')).toHaveLength(1);
  });
});

async function metricsOf(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of the first sample of `name` whose labels include every one of `labels`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/metrics on every app', () => {
  const health = (name: string) => `http://127.0.0.1:${p.ports[name]!['health']}/metrics`;

  it('gateway: HTTP rate, errors and duration by route; the depth of every queue', async () => {
    expect(
      (await p.api('GET', '/api/v1/invoices/not-a-key?document_type=nfe', { key: company.homologationKey })).status,
    ).toBeGreaterThanOrEqual(400);
    const text = await metricsOf(`${p.gatewayUrl}/metrics`);
    expect(sample(text, 'talao_http_requests_total', { method: 'POST', route: '/api/v1/invoices', status: '201' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'talao_http_requests_total', { method: 'POST', route: '/api/v1/invoices', status: '502' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'talao_http_requests_total', { method: 'GET', route: '/api/v1/invoices/:access_key' })).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'talao_http_request_duration_seconds_count', { route: '/api/v1/invoices', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    for (const queue of ['issuance', 'amendments', 'webhooks', 'pdf', 'received']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(sample(text, 'talao_queue_jobs', { queue, state })).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('issuer: wait and processing time per queue, authorizer calls by outcome and code, documents issued and rejected', async () => {
    const text = await metricsOf(health('issuer'));
    expect(sample(text, 'talao_queue_job_wait_seconds_count', { queue: 'issuance', job: 'issue' })).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'talao_queue_job_processing_seconds_count', { queue: 'issuance', job: 'issue', outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'talao_authorizer_call_duration_seconds_count', { operation: 'NFeAutorizacao4' })).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'talao_authorizer_calls_total', { operation: 'NFeAutorizacao4', outcome: 'authorized', code: '100' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'talao_authorizer_calls_total', { operation: 'NFeAutorizacao4', outcome: 'rejected' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'talao_documents_issued_total', { document_type: 'nfe', environment: 'homologation' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'talao_documents_rejected_total', { document_type: 'nfe', environment: 'homologation' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'talao_queue_jobs', { queue: 'issuance', state: 'waiting' })).toBeGreaterThanOrEqual(0);
  });

  it('webhook dispatcher: deliveries by outcome', async () => {
    await waitFor('the delivery', async () => (await deliveries(p, company)).find((d) => d.status === 'delivered'));
    const text = await metricsOf(health('webhook-dispatcher'));
    expect(sample(text, 'talao_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'talao_queue_job_processing_seconds_count', { queue: 'webhooks', job: 'deliver-webhook' })).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('canceller: its queue depth and the process series', async () => {
    const text = await metricsOf(health('canceller'));
    expect(sample(text, 'talao_queue_jobs', { queue: 'amendments', state: 'waiting' })).toBe(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it("received-sync: each company's cap state, read from PostgreSQL at scrape time", async () => {
    const until = new Date(Date.now() + 3_600_000);
    await p.prisma.receivedSyncState.create({
      data: {
        companyId: company.id,
        environment: 'homologation',
        channel: 'nfe',
        blockedUntil: until,
        blockedCode: '656',
        blockedReason: 'Consumo indevido',
      },
    });
    const text = await metricsOf(health('received-sync'));
    const labels = { company_id: company.id, environment: 'homologation', channel: 'nfe', code: '656' };
    expect(sample(text, 'talao_received_sync_blocked_until_seconds', labels)).toBeCloseTo(until.getTime() / 1000, 0);
    await p.prisma.receivedSyncState.update({
      where: { companyId_environment_channel: { companyId: company.id, environment: 'homologation', channel: 'nfe' } },
      data: { blockedUntil: null, blockedCode: null },
    });
    const released = await metricsOf(health('received-sync'));
    expect(sample(released, 'talao_received_sync_blocked_until_seconds', { company_id: company.id, code: '' })).toBe(0);
  });

  it('mcp: HTTP requests by path', async () => {
    const base = `http://127.0.0.1:${p.ports['mcp']!['http']}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const text = await metricsOf(`${base}/metrics`);
    expect(sample(text, 'talao_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  (chromium ? it : it.skip)('pdf-renderer: PDF render time (rendered on authorization)', async () => {
    // The render is timed before its row is stored and the job completes: wait for both.
    await waitFor('a rendered PDF job', async () => {
      const text = await metricsOf(health('pdf-renderer'));
      const rendered = sample(text, 'talao_pdf_render_duration_seconds_count', { document_type: 'nfe' }) ?? 0;
      const completed =
        sample(text, 'talao_queue_job_processing_seconds_count', { queue: 'pdf', job: 'render-pdf', outcome: 'completed' }) ?? 0;
      return rendered >= 1 && completed >= 1 ? text : undefined;
    });
  });
});

describe('the queue dashboard (bull-board) at /admin/v1/queues', () => {
  const adminToken = () => p.adminToken;

  it('asks for the admin token (Bearer, or Basic for a browser) and refuses a wrong one', async () => {
    const missing = await fetch(`${p.gatewayUrl}/admin/v1/queues`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Basic /);
    const wrong = await fetch(`${p.gatewayUrl}/admin/v1/queues/api/queues`, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ detail: 'Invalid admin token' });
  });

  it('lists every queue of the platform to the operator', async () => {
    const page = await fetch(`${p.gatewayUrl}/admin/v1/queues`, { headers: { authorization: `Bearer ${adminToken()}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const basic = Buffer.from(`operator:${adminToken()}`).toString('base64');
    const listed = await fetch(`${p.gatewayUrl}/admin/v1/queues/api/queues`, { headers: { authorization: `Basic ${basic}` } });
    expect(listed.status).toBe(200);
    const { queues } = (await listed.json()) as { queues: Array<{ name: string }> };
    expect(queues.map((queue) => queue.name).sort()).toEqual(['amendments', 'issuance', 'pdf', 'received', 'webhooks']);
  });
});
