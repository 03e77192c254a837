// Delivery attempts against a real local HTTPS receiver (and HTTP for the local-development switch): what is sent,
// and how each way an endpoint can fail is classified for the delivery log.
import { createServer, type AddressInfo } from 'node:net';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { answerStatus, startWebhookReceiver, type WebhookReceiver } from '@talao/webhooks/testing';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../events/event-names.js';
import { eventBody } from '../events/event-payload.js';
import { verifyWebhookSignature } from '../signing/verify.js';
import { createWebhookDeliverer, type DeliveryAttempt, type WebhookDeliverer } from './deliverer.js';

const ca = createTestCertificateAuthority();
const certificate = ca.issueServerCertificate(['127.0.0.1', 'localhost']);
const secret = 'whsec_test_0123456789';
/** The short per-attempt timeout of the hang tests; the others keep the default 10 s (a cold TLS handshake on a busy machine). */
const TIMEOUT_MS = 1000;

let receiver: WebhookReceiver;
let plainReceiver: WebhookReceiver;
const deliverers: WebhookDeliverer[] = [];
const newDeliverer = (options: Partial<Parameters<typeof createWebhookDeliverer>[0]> = {}) => {
  const created = createWebhookDeliverer({ productVersion: '0.1.0', ...options });
  deliverers.push(created);
  return created;
};
const deliverer = newDeliverer({ policy: { allowLoopback: true }, ca: ca.caCertificatePem });
const impatient = newDeliverer({ policy: { allowLoopback: true }, ca: ca.caCertificatePem, timeoutMs: TIMEOUT_MS });

const attempt = (
  url: string,
  event: WebhookEventName = 'invoice.authorized',
  deliveryId = 'a1b2c3d4-0000-4000-8000-000000000001',
): DeliveryAttempt => ({
  url,
  deliveryId,
  event,
  secrets: secret,
  body: eventBody({
    id: 'e0000000-0000-4000-8000-000000000001',
    event,
    createdAt: new Date(),
    invoice: {
      invoiceId: 'f0000000-0000-4000-8000-000000000001',
      documentType: 'nfe',
      accessKey: '35261111222333000181550010000000011000000017',
      amount: '1234.56',
    },
  }),
});

beforeAll(async () => {
  receiver = await startWebhookReceiver({ tls: certificate });
  plainReceiver = await startWebhookReceiver();
});

afterAll(async () => {
  await Promise.all(deliverers.map((d) => d.close()));
  await Promise.all([receiver.close(), plainReceiver.close()]);
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.respond = answerStatus(200, 'ok');
  plainReceiver.received.length = 0;
});

describe('a delivery attempt', () => {
  it('POSTs every event type signed, with the delivery headers, and a 2xx is delivered', async () => {
    receiver.respond = answerStatus(204);
    for (const event of WEBHOOK_EVENTS) {
      const sent = attempt(`${receiver.origin}/hooks/talao?tenant=7`, event);
      const outcome = await deliverer.deliver(sent);
      expect(outcome).toMatchObject({ result: 'delivered', status: 204, responseExcerpt: '', error: null });
      const request = receiver.received.at(-1)!;
      expect(request).toMatchObject({ method: 'POST', path: '/hooks/talao?tenant=7' });
      expect(request.body.toString('utf8')).toBe(sent.body);
      expect(request.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'Talao-Webhooks/0.1.0',
        'service-delivery-id': sent.deliveryId,
        'service-event': event,
        'service-signature': expect.stringMatching(new RegExp(`^t=${outcome.signedAt},v1=[0-9a-f]{64}$`)),
      });
      expect(verifyWebhookSignature({ header: request.headers['service-signature'], body: request.body, secrets: secret })).toEqual({
        ok: true,
        timestamp: outcome.signedAt,
      });
    }
    expect(receiver.received).toHaveLength(WEBHOOK_EVENTS.length);
  });

  it('sends the same Service-Delivery-Id on every retry of one delivery, each attempt signed on its own', async () => {
    const sent = attempt(`${receiver.origin}/hooks`, 'invoice.rejected', 'retry-me-0001');
    receiver.respond = answerStatus(503);
    expect((await deliverer.deliver(sent)).result).toBe('http_error');
    receiver.respond = answerStatus(200);
    expect((await deliverer.deliver(sent)).result).toBe('delivered');
    expect(receiver.received.map((r) => r.headers['service-delivery-id'])).toEqual(['retry-me-0001', 'retry-me-0001']);
    for (const request of receiver.received) {
      expect(verifyWebhookSignature({ header: request.headers['service-signature'], body: request.body, secrets: secret }).ok).toBe(true);
    }
  });

  it('is an http_error with the status and the start of the body on a 500', async () => {
    receiver.respond = answerStatus(500, 'database unavailable');
    await expect(deliverer.deliver(attempt(`${receiver.origin}/hooks`))).resolves.toMatchObject({
      result: 'http_error',
      status: 500,
      responseExcerpt: 'database unavailable',
      error: 'HTTP 500',
    });
  });

  it('does not follow a redirect: a 302 is a failure and the Location is never requested', async () => {
    receiver.respond = (res) => res.writeHead(302, { location: `${receiver.origin}/moved` }).end();
    await expect(deliverer.deliver(attempt(`${receiver.origin}/hooks`))).resolves.toMatchObject({
      result: 'http_error',
      status: 302,
      error: `redirect to ${receiver.origin}/moved not followed`,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks']);
  });

  it('is connection_refused when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await deliverer.deliver(attempt(`https://127.0.0.1:${port}/hooks`));
    expect(outcome).toMatchObject({ result: 'connection_refused', status: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  /** A kept-alive connection first, so only the request itself races the short timeout (not a TLS handshake). */
  const warmUp = async () => {
    expect((await impatient.deliver(attempt(`${receiver.origin}/warm-up`))).result).toBe('delivered');
    receiver.received.length = 0;
  };

  it('is a timeout when the endpoint does not answer within the per-attempt timeout', async () => {
    await warmUp();
    receiver.respond = () => undefined; // reads the request, never answers
    const outcome = await impatient.deliver(attempt(`${receiver.origin}/hooks`));
    expect(outcome).toMatchObject({ result: 'timeout', status: null, error: `no response within ${TIMEOUT_MS} ms` });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(outcome.durationMs).toBeLessThan(5000); // the attempt's timeout, far from the default 10 s
    expect(receiver.received).toHaveLength(1);
  });

  it('is delivered once a 2xx status arrives in time, even when the body then stalls (the status decides)', async () => {
    await warmUp();
    receiver.respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    };
    const outcome = await impatient.deliver(attempt(`${receiver.origin}/hooks`));
    expect(outcome).toMatchObject({ result: 'delivered', status: 200, responseExcerpt: 'partial' });
    expect(outcome.durationMs).toBeLessThan(5000);
  });

  it('keeps the first 4 KiB of a huge response body and reads no further', async () => {
    const total = 512 * 1024 * 1024;
    let written = 0;
    receiver.respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(total) });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    };
    const outcome = await deliverer.deliver(attempt(`${receiver.origin}/hooks`));
    expect(outcome).toMatchObject({ result: 'delivered', status: 200 });
    expect(outcome.responseExcerpt).toBe('x'.repeat(4096));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // What the server managed to hand to the kernel before the client closed: socket buffers, not the body.
    expect(written).toBeLessThan(64 * 1024 * 1024); // of 512 MiB offered (about 200 KiB here)
  });

  it('accepts http:// on loopback only through the local-development switch', async () => {
    await expect(deliverer.deliver(attempt(`${plainReceiver.origin}/hooks`))).resolves.toMatchObject({ result: 'delivered', status: 200 });
    const production = newDeliverer();
    await expect(production.deliver(attempt(`${plainReceiver.origin}/hooks`))).resolves.toMatchObject({
      result: 'target_refused',
      error: 'http:// is not accepted (https only)',
    });
    await expect(production.deliver(attempt(`${receiver.origin}/hooks`))).resolves.toMatchObject({
      result: 'target_refused',
      error: 'refused by the SSRF guard: 127.0.0.1, a loopback address',
    });
    expect(plainReceiver.received).toHaveLength(1);
    expect(receiver.received).toHaveLength(0);
  });

  it('verifies the endpoint certificate: an untrusted one is a connection_error', async () => {
    const untrusting = newDeliverer({ policy: { allowLoopback: true } });
    const outcome = await untrusting.deliver(attempt(`${receiver.origin}/hooks`));
    expect(outcome.result).toBe('connection_error');
    expect(outcome.error).toMatch(/certificate/i);
    expect(receiver.received).toHaveLength(0);
  });
});
