// Webhooks end to end, every app a real process (simulator, issuer, gateway, webhook dispatcher) and the receiver a
// local HTTP server: registration and its refusals, signed deliveries the reference verifier accepts, a receiver down
// then up on the documented schedule (base delay shrunk to 20 ms: waits of 20, 80, 400 ms…), given up, redelivered.
import { jest } from '@jest/globals';
import { freePort } from '../issuance/support/app-processes.js';
import { issue, rejectedNfe } from '../contract/support/contract.js';
import { RETRY_DELAY_MULTIPLES, verifyWebhookSignature } from '@talao/webhooks';
import { answerStatus, startWebhookReceiver } from '@talao/webhooks/testing';
import { deliveries, register, SECRET, useWebhookPlatform, waitFor } from './support.js';

jest.setTimeout(180_000);

const BASE_MS = 20;
const webhooks = useWebhookPlatform('webhooks', {
  WEBHOOK_RETRY_BASE_DELAY_MS: String(BASE_MS),
  WEBHOOK_DELIVERY_TIMEOUT_MS: '1000',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
  WEBHOOK_SWEEP_GRACE_MS: '3000',
  // Few slots, and at most 2 per endpoint: a hanging endpoint must still leave the others theirs.
  WEBHOOK_DISPATCHER_CONCURRENCY: '8',
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '2',
});

describe('registration', () => {
  it('registers (201 without the secret), lists, deletes (204, no body) within the key’s company and environment', async () => {
    const { p, company, receiver } = webhooks();
    const created = await register(p, company, `${receiver.origin}/registered`, ['invoice.authorized']);
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['created_at', 'events', 'id', 'url']);
    expect(JSON.stringify(created.body)).not.toContain(SECRET);
    const id = String(created.body['id']);
    const listed = await p.api('GET', '/api/v1/webhooks', { key: company.homologationKey });
    expect((listed.body['data'] as Array<{ id: string }>).map((w) => w.id)).toContain(id);
    // The production key of the same company sees none of the homologation endpoints.
    const other = await p.api('GET', '/api/v1/webhooks', { key: company.productionKey });
    expect(other.body['data']).toEqual([]);
    expect((await p.api('DELETE', `/api/v1/webhooks/${id}`, { key: company.productionKey })).status).toBe(404);
    const response = await fetch(`${p.gatewayUrl}/api/v1/webhooks/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${company.homologationKey}` },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await p.api('DELETE', `/api/v1/webhooks/${id}`, { key: company.homologationKey })).status).toBe(404);
  });

  it.each([
    ['an unknown event name, named', { events: ['invoice.paid'] }, /unknown event "invoice\.paid"/],
    ['an over-long secret', { secret: 'x'.repeat(257) }, /secret must be 16 to 256 characters/],
    ['a short secret', { secret: 'short' }, /secret must be 16 to 256 characters/],
    ['a private target', { url: 'https://10.1.2.3/hook' }, /non-public address/],
    ['the metadata service', { url: 'https://169.254.169.254/latest' }, /non-public address/],
    ['http to a non-loopback address', { url: 'http://8.8.8.8/hook' }, /https/],
  ])('refuses %s with 422', async (_, change, detail) => {
    const { p, company, receiver } = webhooks();
    const body = { url: `${receiver.origin}/x`, secret: SECRET, events: [], ...change };
    const answer = await p.api('POST', '/api/v1/webhooks', { key: company.homologationKey, body });
    expect(answer.status).toBe(422);
    expect(String(answer.body['detail'])).toMatch(detail);
  });
});

describe('delivery', () => {
  it('delivers authorized and rejected events, signed, in SPEC.md’s shape; a replay after 300 s and a tampered body are refused', async () => {
    const { p, company, receiver } = webhooks();
    const path = '/signed';
    const created = await register(p, company, `${receiver.origin}${path}`);
    expect(created.status).toBe(201);
    const authorized = await issue(p, company);
    expect(authorized.status).toBe(201);
    const rejectedId = String(((await rejectedNfe(p, company)).body['detail'] as Record<string, unknown>)['invoice_id']);
    await p.sim.control('DELETE', '/_control/faults');
    const got = await waitFor('two deliveries', () => {
      const mine = receiver.received.filter((r) => r.path === path);
      return mine.length >= 2 ? mine : undefined;
    });
    for (const request of got) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^Talao-Webhooks\//);
      expect(request.headers['service-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
      const header = request.headers['service-signature'];
      expect(verifyWebhookSignature({ header, body: request.body, secrets: SECRET }).ok).toBe(true);
      const later = new Date(request.receivedAt.getTime() + 301_000);
      expect(verifyWebhookSignature({ header, body: request.body, secrets: SECRET, now: later }).ok).toBe(false);
      const tampered = Buffer.from(request.body.toString('utf8').replace('"amount":', '"amount":1'));
      expect(verifyWebhookSignature({ header, body: tampered, secrets: SECRET }).ok).toBe(false);
    }
    const bodies = got.map((r) => JSON.parse(r.body.toString('utf8')) as { event: string; data: Record<string, unknown> });
    const ok = bodies.find((b) => b.event === 'invoice.authorized')!;
    expect(ok.data).toEqual({
      invoice_id: authorized.body['invoice_id'],
      document_type: 'nfe',
      access_key: authorized.body['access_key'],
      status: 'issued',
      amount: authorized.body['amount'],
    });
    // The amount is the decimal text itself, as a JSON number token.
    expect(got.find((r) => r.body.includes('invoice.authorized'))!.body.toString()).toMatch(/"amount":\d+\.\d{2}\}/);
    const rejected = bodies.find((b) => b.event === 'invoice.rejected')!;
    expect(rejected.data['invoice_id']).toBe(rejectedId);
    expect(rejected.data['status']).toBe('rejected');
    // SPEC.md: a rejected document has no access key, in its record or its event.
    expect(rejected.data).not.toHaveProperty('access_key');
    await p.api('DELETE', `/api/v1/webhooks/${String(created.body['id'])}`, { key: company.homologationKey });
  });

  it('receiver refused, then 500, then hanging past the timeout, then up: delivered on the schedule, one Service-Delivery-Id', async () => {
    const { p, company } = webhooks();
    const port = await freePort();
    const created = await register(p, company, `http://127.0.0.1:${port}/flaky`, ['invoice.authorized']);
    const webhookId = String(created.body['id']);
    expect((await issue(p, company)).status).toBe(201);
    // Nothing listens: the first attempt is refused. Then the receiver comes up: 500, a hang, then 200.
    await waitFor('a refused attempt', async () => (await deliveries(p, company, `&webhook_id=${webhookId}`))[0]?.attempts[0]);
    const flaky = await startWebhookReceiver({ port });
    let calls = 0;
    flaky.respond = (res, request) => {
      calls += 1;
      if (calls === 1) return answerStatus(500, 'down')(res, request);
      if (calls === 2) return; // hangs past the 1 s timeout
      answerStatus(200)(res, request);
    };
    try {
      const done = await waitFor(
        'the delivery',
        async () => (await deliveries(p, company, `&webhook_id=${webhookId}&status=delivered`))[0],
        60_000,
      );
      // Refused until the receiver came up (the second try, 20 ms later, may be refused too), then 500, hang, 200.
      const results = done.attempts.map((a) => a.result);
      const refused = results.findIndex((result) => result !== 'connection_refused');
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(results.slice(refused)).toEqual(['http_error', 'timeout', 'delivered']);
      expect(done.attempts[refused]!.response_status).toBe(500);
      expect(new Set(flaky.received.map((r) => r.headers['service-delivery-id']))).toEqual(new Set([done.id]));
      // Each wait is at least its documented share of the schedule (−10% jitter) after the previous attempt ended.
      const starts = done.attempts.map((a) => Date.parse(a.started_at));
      for (let n = 1; n < starts.length; n++) {
        expect(starts[n]! - starts[n - 1]!).toBeGreaterThanOrEqual(RETRY_DELAY_MULTIPLES[n - 1]! * BASE_MS * 0.9);
      }
    } finally {
      await flaky.close();
    }
  });

  it('gives up after 7 attempts, lists it, and redelivers it on request with the same id', async () => {
    const { p, company, receiver } = webhooks();
    const path = '/always-500';
    const created = await register(p, company, `${receiver.origin}${path}`, ['invoice.authorized']);
    const webhookId = String(created.body['id']);
    receiver.respond = (res, request) => (request.path === path ? answerStatus(500)(res, request) : answerStatus(200)(res, request));
    expect((await issue(p, company)).status).toBe(201);
    const givenUp = await waitFor(
      'a given-up delivery',
      async () => (await deliveries(p, company, `&webhook_id=${webhookId}&status=given_up`))[0],
      90_000,
    );
    expect(givenUp.attempts).toHaveLength(7);
    receiver.respond = answerStatus(200);
    const retry = await p.api('POST', `/api/v1/webhooks/deliveries/${givenUp.id}/retry`, { key: company.homologationKey });
    expect(retry.status).toBe(202);
    const delivered = await waitFor('the redelivery', async () =>
      (await deliveries(p, company, `&webhook_id=${webhookId}&status=delivered`)).find((d) => d.id === givenUp.id),
    );
    expect(delivered.attempts.at(-1)!.result).toBe('delivered');
    expect(new Set(receiver.received.filter((r) => r.path === path).map((r) => r.headers['service-delivery-id']))).toEqual(
      new Set([givenUp.id]),
    );
    expect((await p.api('POST', `/api/v1/webhooks/deliveries/${givenUp.id}/retry`, { key: company.productionKey })).status).toBe(404);
  });

  it('a 200 whose body holds NUL bytes (a gzip answer) is delivered once; its excerpt is stored, NUL as U+FFFD', async () => {
    const { p, company, receiver } = webhooks();
    const path = '/binary-answer';
    const created = await register(p, company, `${receiver.origin}${path}`, ['invoice.authorized']);
    const webhookId = String(created.body['id']);
    receiver.respond = (res, request) => {
      if (request.path !== path) return answerStatus(200)(res, request);
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x6f, 0x6b]));
    };
    expect((await issue(p, company)).status).toBe(201);
    const delivered = await waitFor(
      'the delivery',
      async () => (await deliveries(p, company, `&webhook_id=${webhookId}&status=delivered`))[0],
    );
    expect(delivered.attempts).toHaveLength(1);
    const answer = await p.api('GET', `/api/v1/webhooks/deliveries?webhook_id=${webhookId}`, { key: company.homologationKey });
    const [row] = answer.body['data'] as Array<{ attempts: Array<{ response_excerpt: string }> }>;
    expect(row!.attempts[0]!.response_excerpt).toContain('\uFFFD');
    // It stays delivered: no sweep sends it again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
    receiver.respond = answerStatus(200);
  });

  it('relays any SPEC.md event of the outbox (cancelled, corrected) and keeps internal events to itself', async () => {
    const { p, company, receiver } = webhooks();
    const path = '/all-events';
    const created = await register(p, company, `${receiver.origin}${path}`);
    const authorized = await issue(p, company);
    const invoiceId = String(authorized.body['invoice_id']);
    // What the amendments flow writes with its state changes (same table, same transaction rule).
    for (const type of ['invoice.cancelled', 'invoice.corrected', 'invoice.failed']) {
      await p.prisma.outboxEvent.create({
        data: { companyId: company.id, environment: 'homologation', type, aggregateId: invoiceId, payload: { invoice_id: invoiceId } },
      });
    }
    const got = await waitFor('three events', () => {
      const mine = receiver.received.filter((r) => r.path === path);
      return mine.length >= 3 ? mine : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const events = receiver.received
      .filter((r) => r.path === path)
      .map((r) => JSON.parse(r.body.toString()) as { event: string; data: { status: string; access_key: string } });
    expect(events.map((e) => `${e.event} ${e.data.status}`).sort()).toEqual([
      'invoice.authorized issued',
      'invoice.cancelled cancelled',
      'invoice.corrected issued',
    ]);
    expect(new Set(events.map((e) => e.data.access_key))).toEqual(new Set([authorized.body['access_key']]));
    expect(got.every((r) => verifyWebhookSignature({ header: r.headers['service-signature'], body: r.body, secrets: SECRET }).ok)).toBe(
      true,
    );
    await p.api('DELETE', `/api/v1/webhooks/${String(created.body['id'])}`, { key: company.homologationKey });
  });

  it('an endpoint hanging until the timeout does not slow deliveries to another', async () => {
    const { p, company, receiver } = webhooks();
    const slow = await startWebhookReceiver();
    // Never answers: every attempt takes the whole 1 s timeout. Counts the attempts open at once.
    let open = 0;
    let mostOpen = 0;
    slow.respond = (res) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      res.on('close', () => (open -= 1));
    };
    const slowHook = await register(p, company, `${slow.origin}/slow`, ['invoice.authorized']);
    const fastHook = await register(p, company, `${receiver.origin}/fast`, ['invoice.authorized']);
    try {
      const count = 30;
      const issued = await Promise.all(Array.from({ length: count }, () => issue(p, company)));
      expect(issued.every((answer) => answer.status === 201)).toBe(true);
      // Every fast delivery arrives while the slow endpoint has not even had each event's first attempt: with 8 worker
      // slots taken by hanging attempts, the fast ones would wait until the slow endpoint had had all of them.
      let slowSeen = 0;
      await waitFor('the fast endpoint’s deliveries', () => {
        slowSeen = slow.received.length;
        return receiver.received.filter((r) => r.path === '/fast').length >= count ? true : undefined;
      });
      expect(slowSeen).toBeLessThan(count / 2);
      expect(slowSeen).toBeGreaterThan(0);
      expect(mostOpen).toBeLessThanOrEqual(2);
    } finally {
      for (const hook of [slowHook, fastHook])
        await p.api('DELETE', `/api/v1/webhooks/${String(hook.body['id'])}`, { key: company.homologationKey });
      await slow.close();
    }
  });
});
