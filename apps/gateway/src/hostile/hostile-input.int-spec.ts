// The hostile-input suite (issue 15): every route of the OpenAPI document the gateway serves (admin API included) ×
// malformed JSON, wrong types per field, NUL and unpaired surrogates, deep nesting, huge strings, numeric overflow,
// prototype keys, duplicate keys, Idempotency-Key / Content-Type / Content-Encoding / Authorization abuse, path
// variants (case, encoding, absolute form) and bodies over the limit, declared and chunked. Loopback only, real
// PostgreSQL and Redis. It asserts: no 5xx; every error a 4xx in the envelope with the gateway's own `detail`;
// rate-limit headers on every answer of the API and the admin API, counted against the allowance the route's row
// names; /readyz ready after; no idempotency record left incomplete; no body read past the limit. It prints the
// number of requests and the status histogram.
// Not probed here, because not in the OpenAPI document: the OAuth endpoints under /oauth (oidc-provider's, form-encoded,
// RFC 6749 error bodies, not this API's envelope); auth/oauth-flow.int-spec.ts sends them hostile input (4xx, no 5xx).
import { jest } from '@jest/globals';
import type { Socket } from 'node:net';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { OPERATIONS, operationFor } from '../rate-limit/operations.js';
import { floodRequest, rawRequest } from '../testing/raw-http.js';
import { companyRequest, startTestGateway, uniqueCnpj, type TestGateway } from '../testing/test-gateway.js';
import { hostileCorpus, routesOf, type HostileRequest, type Route } from './hostile-corpus.js';

jest.setTimeout(240_000);
// A valid creation waits for an issuer that is not running here: answer 202 quickly.
process.env.ISSUE_WAIT_MS = '200';

const LIMIT_BYTES = 1024 * 1024;
/** What the server may read past the limit: one socket read (64 KiB) plus the head and framing. */
const READ_SLACK = 128 * 1024;
const CONCURRENCY = 6;
/** Words of the framework or of the libraries under it, which must never reach a client. */
const FOREIGN_WORDS =
  /Failed to decode|incorrect header check|Unexpected token|in JSON at position|SyntaxError|TypeError|Prisma|prisma\.|node_modules|at \w+ \(|Cannot (?:GET|POST|PUT|DELETE)|ECONN|stack/;

// Distinct allowances: the X-RateLimit-Limit of an answer names the allowance it was counted against.
const operationNames = Object.keys(OPERATIONS);
const limits = Object.fromEntries(operationNames.map((name, i) => [name, 1_000_000 + i]));

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

function rowFor(method: string, template: string): string {
  const normalized = template.replace(/^\/api\/v1/, '').replace(/\{[^}]+\}/g, ':');
  for (const [name, definition] of Object.entries(OPERATIONS) as [string, { route?: readonly [string, string] }][]) {
    if (definition.route && definition.route[0] === method && definition.route[1].replace(/:[^/]+/g, ':') === normalized) return name;
  }
  return 'default';
}

describe('hostile input (every documented route, real PostgreSQL and Redis)', () => {
  let gateway: TestGateway;
  let port: number;
  let companyId: string;
  let apiKey: string;
  let routes: Route[];
  let corpus: HostileRequest[];
  const serverSockets = new Map<number, Socket>();
  /** The gateway's warn and error log lines: a 5xx is reported with the error it logged. */
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway(
      Object.fromEntries(Object.entries(limits).map(([name, limit]) => [`RATE_LIMIT_${name.toUpperCase()}`, String(limit)])),
      { logLines },
    );
    port = Number(new URL(gateway.baseUrl).port);
    gateway.app.getHttpServer().on('connection', (socket: Socket) => serverSockets.set(socket.remotePort ?? 0, socket));

    // A company that can issue (normal regime, as the samples are), with a certificate of the test CA and an API key.
    const taxId = uniqueCnpj();
    const created = await gateway.admin('POST', '/admin/v1/companies', { ...companyRequest(taxId), tax_regime: 'normal' });
    companyId = ((await created.json()) as { id: string }).id;
    const pkcs12 = createTestCertificateAuthority().issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'p' });
    expect(
      (
        await gateway.admin('PUT', `/admin/v1/companies/${companyId}/certificate`, {
          pkcs12_base64: pkcs12.toString('base64'),
          password: 'p',
        })
      ).status,
    ).toBe(200);
    const key = await gateway.admin('POST', `/admin/v1/companies/${companyId}/api-keys`, {
      name: 'hostile',
      environment: 'homologation',
      context: 'api',
    });
    apiKey = ((await key.json()) as { key: string }).key;

    const document = (await (await gateway.request('GET', '/api/v1/openapi.json')).json()) as Parameters<typeof routesOf>[0] & {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    routes = routesOf(document);
    corpus = hostileCorpus(routes, {
      apiKey,
      adminToken: gateway.config.adminToken,
      companyId,
      limitBytes: LIMIT_BYTES,
      components: document.components.schemas,
      bodiesFor: (route) => {
        const properties = (route.bodySchema?.properties ?? {}) as Record<string, unknown>;
        if (route.operationId === 'createInvoice' || 'document_type' in properties) return [sampleNfeRequest(), sampleNfseRequest()];
        if (route.operationId === 'adminCreateCompany') return [companyRequest()];
        if (route.operationId === 'adminSetCertificate') return [{ pkcs12_base64: pkcs12.toString('base64'), password: 'p' }];
        if (route.operationId === 'adminCreateApiKey') return [{ name: 'hostile', environment: 'homologation', context: 'api' }];
        return [];
      },
    });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  let sequence = 0;
  async function send(request: HostileRequest): Promise<Answer & { bytesRead?: number }> {
    if (request.category === 'oversized') {
      const answer = await floodRequest(port, request.raw!, { chunked: request.label.includes('chunked') });
      return {
        status: answer.status,
        headers: answer.headers,
        text: answer.status === 0 ? `no answer (${answer.ending}, ${answer.written} bytes written)` : answer.body,
        bytesRead: serverSockets.get(answer.localPort)?.bytesRead ?? -1,
      };
    }
    if (request.raw) {
      // Certificate uploads hold the event loop while forge reads the file: allow for a busy machine.
      const answer = await rawRequest(port, request.raw, 30_000);
      return { status: answer.status, headers: answer.headers, text: answer.body };
    }
    const headers = { ...request.headers };
    // A fresh key on every API POST: each call goes through the idempotency record, none replays another.
    if (request.method === 'POST' && request.path.startsWith('/api/') && !('idempotency-key' in headers))
      headers['idempotency-key'] = `hostile-${++sequence}`;
    try {
      const response = await fetch(`${gateway.baseUrl}${request.path}`, {
        method: request.method,
        headers,
        ...(request.body !== undefined && { body: request.body }),
      });
      return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
    } catch (error) {
      return { status: 0, headers: {}, text: `no answer: ${(error as Error).cause ?? (error as Error).message}` };
    }
  }

  /** What is wrong with the answer, or null. */
  function problemsOf(request: HostileRequest, answer: Answer & { bytesRead?: number }): string | null {
    if (answer.status === 0 || answer.status >= 500) {
      const id = /"request_id":"([^"]+)"/.exec(answer.text)?.[1];
      const logged = logLines.find((line) => line.request_id === id && line.err);
      return `answered ${answer.status}: ${answer.text.slice(0, 200)} ${logged ? JSON.stringify(logged.err).slice(0, 600) : ''}`;
    }
    if (request.expect?.status && !request.expect.status.includes(answer.status))
      return `expected ${request.expect.status.join('/')}, got ${answer.status}: ${answer.text.slice(0, 200)}`;
    if (request.expect?.field && !answer.text.includes(`"field":${JSON.stringify(request.expect.field)}`))
      return `the 422 does not name ${request.expect.field}: ${answer.text.slice(0, 200)}`;
    if (answer.bytesRead !== undefined && (answer.bytesRead < 0 || answer.bytesRead > LIMIT_BYTES + READ_SLACK))
      return `the server read ${answer.bytesRead} bytes of the body`;
    // Node's parser refused the request before the application saw it (no request id header): framing only.
    const parsedByApp = answer.headers['x-request-id'] !== undefined;
    const probe = /^(?:https?:\/\/[^/]*)?\/(?:healthz|readyz)(?:[?]|$)/.test(request.path);
    if (parsedByApp && !probe && !answer.headers['x-ratelimit-limit']) return 'no X-RateLimit-* headers';
    // HEAD answers carry no body.
    if (answer.status >= 400 && request.method !== 'HEAD') {
      if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return `error not in JSON: ${answer.headers['content-type']}`;
      let envelope: { detail?: unknown; request_id?: unknown };
      try {
        envelope = JSON.parse(answer.text) as typeof envelope;
      } catch {
        return `error body is not JSON: ${answer.text.slice(0, 100)}`;
      }
      if (
        typeof envelope.request_id !== 'string' ||
        (typeof envelope.detail !== 'string' && (typeof envelope.detail !== 'object' || envelope.detail === null))
      ) {
        return `not the envelope: ${answer.text.slice(0, 200)}`;
      }
      if (FOREIGN_WORDS.test(answer.text)) return `foreign words: ${answer.text.slice(0, 300)}`;
      if (answer.text.length > 64 * 1024) return `error body of ${answer.text.length} characters`;
    }
    return null;
  }

  it('answers every hostile request with a 4xx in its own words (or a success), never a 5xx', async () => {
    const started = Date.now();
    const failures: string[] = [];
    const histogram: Record<string, number> = {};
    const byCategory: Record<string, number> = {};
    const floods = corpus.filter((r) => r.category === 'oversized');
    const queue = corpus.filter((r) => r.category !== 'oversized');
    const record = (request: HostileRequest, answer: Answer & { bytesRead?: number }) => {
      histogram[answer.status] = (histogram[answer.status] ?? 0) + 1;
      byCategory[request.category] = (byCategory[request.category] ?? 0) + 1;
      const problem = problemsOf(request, answer);
      if (problem) failures.push(`${request.category} | ${request.label.slice(0, 160)} → ${problem}`);
    };
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let request = queue.shift(); request; request = queue.shift()) record(request, await send(request));
      }),
    );
    // One flood at a time: the server-side socket of each is then the one its answer names.
    for (const request of floods) record(request, await send(request));

    const total = Object.values(histogram).reduce((a, b) => a + b, 0);
    console.log(
      `hostile suite: ${total} requests over ${routes.length} documented routes in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
        `statuses: ${JSON.stringify(histogram)}\ncategories: ${JSON.stringify(byCategory)}`,
    );
    expect(total).toBeGreaterThan(1_500);
    expect(failures.slice(0, 40)).toEqual([]);
  });

  it('makes one document of 20 concurrent calls with one Idempotency-Key, and answers each of them', async () => {
    const invoices = () => gateway.resources.prisma.invoice.count({ where: { companyId } });
    const before = await invoices();
    const headers = {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': `concurrent-${Date.now()}`,
    };
    const body = JSON.stringify(sampleNfeRequest());
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await fetch(`${gateway.baseUrl}/api/v1/invoices`, { method: 'POST', headers, body });
        return { status: response.status, body: (await response.json()) as { invoice_id?: string } };
      }),
    );
    // The first call runs; the others wait their turn (409 while it runs) or replay its answer.
    expect(answers.filter((a) => ![201, 202, 409].includes(a.status))).toEqual([]);
    const documents = new Set(answers.map((a) => a.body.invoice_id).filter(Boolean));
    expect(documents.size).toBe(1);
    expect((await invoices()) - before).toBe(1);
  });

  it('counts every documented API route against the allowance its row of the rate-limit table names', async () => {
    for (const route of routes.filter((r) => r.template.startsWith('/api/v1/'))) {
      const path = route.template.replace(/\{[^}]+\}/g, '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f');
      const response = await gateway.request(route.method, path, { token: apiKey, ...(route.bodySchema && { body: {} }) });
      const row = rowFor(route.method, route.template);
      expect({ route: `${route.method} ${route.template}`, allowance: response.headers.get('x-ratelimit-limit') }).toEqual({
        route: `${route.method} ${route.template}`,
        allowance: String(limits[row]),
      });
      expect(operationFor(route.method, path.slice('/api/v1'.length))).toBe(row);
    }
  });

  it('is still ready, and left no idempotency record incomplete', async () => {
    expect((await gateway.request('GET', '/readyz')).status).toBe(200);
    const incomplete = await gateway.resources.prisma.idempotencyRecord.count({ where: { companyId, completedAt: null } });
    expect(incomplete).toBe(0);
    expect(await gateway.resources.prisma.idempotencyRecord.count({ where: { companyId } })).toBeGreaterThan(100);
  });
});
