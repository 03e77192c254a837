// The SSRF guard on real sockets: a delivery to an address that is not global unicast is refused before a request
// is sent, whether the URL names the address, a name resolves to it, or the name changed since registration (DNS
// rebinding). The loopback cases aim at a live receiver, so "refused" also means "it received nothing".
import { type LookupAddress } from 'node:dns';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { startWebhookReceiver, type WebhookReceiver } from '@talao/webhooks/testing';
import { eventBody } from '../events/event-payload.js';
import { PRODUCTION_TARGET_POLICY } from './address-policy.js';
import { createWebhookDeliverer, type WebhookDeliverer } from './deliverer.js';
import { type HostResolver } from './guarded-connector.js';
import { checkWebhookTarget } from './target-check.js';

const ca = createTestCertificateAuthority();
const certificate = ca.issueServerCertificate(['127.0.0.1', 'localhost', 'hooks.example.com']);
let receiver: WebhookReceiver;
let port: string;
const deliverers: WebhookDeliverer[] = [];

/** A name server the test controls: each name answers the addresses the test has put there at that moment. */
const zone = new Map<string, LookupAddress[]>();
const resolver: HostResolver = async (hostname) =>
  zone.get(hostname) ?? Promise.reject(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));

const deliverer = (allowLoopback = false) => {
  const created = createWebhookDeliverer({
    productVersion: '0.1.0',
    policy: { allowLoopback },
    resolver,
    ca: ca.caCertificatePem,
  });
  deliverers.push(created);
  return created;
};
const attempt = (url: string) => ({
  url,
  deliveryId: 'ssrf-0001',
  event: 'invoice.authorized' as const,
  secrets: 'whsec_test_0123456789',
  body: eventBody({
    id: 'e1',
    event: 'invoice.authorized',
    createdAt: new Date(),
    invoice: { invoiceId: 'i1', documentType: 'nfe', accessKey: '35261111222333000181550010000000011000000017', amount: '1.00' },
  }),
});

beforeAll(async () => {
  receiver = await startWebhookReceiver({ tls: certificate });
  port = new URL(receiver.origin).port;
});

afterAll(async () => {
  await Promise.all(deliverers.map((d) => d.close()));
  await receiver.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  zone.clear();
});

describe('SSRF guard at connect time (production policy)', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['[::1]', 'a loopback address'],
    ['[::ffff:127.0.0.1]', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['192.168.0.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['[fc00::1]', 'a unique-local (private) address'],
    ['[fe80::1]', 'a link-local address'],
    ['0.0.0.0', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['[ff02::1]', 'a multicast address'],
  ])('refuses the literal %s before any socket', async (host, kind) => {
    const outcome = await deliverer().deliver(attempt(`https://${host}:${port}/hooks`));
    expect(outcome).toMatchObject({ result: 'target_refused', status: null, error: expect.stringContaining(kind) });
    expect(outcome.durationMs).toBeLessThan(5000); // refused, not timed out (10 s)
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses `localhost` through the system resolver', async () => {
    const production = createWebhookDeliverer({
      productVersion: '0.1.0',
      timeoutMs: 2000,
      policy: PRODUCTION_TARGET_POLICY,
      ca: ca.caCertificatePem,
    });
    deliverers.push(production);
    await expect(production.deliver(attempt(`https://localhost:${port}/hooks`))).resolves.toMatchObject({
      result: 'target_refused',
      error: expect.stringMatching(/^refused by the SSRF guard: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/),
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback, and one that mixes a public and an internal address', async () => {
    zone.set('hooks.example.com', [{ address: '127.0.0.1', family: 4 }]);
    await expect(deliverer().deliver(attempt(`https://hooks.example.com:${port}/hooks`))).resolves.toMatchObject({
      result: 'target_refused',
      error: 'refused by the SSRF guard: hooks.example.com resolves to 127.0.0.1, a loopback address',
    });
    zone.set('hooks.example.com', [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    await expect(deliverer().deliver(attempt(`https://hooks.example.com:${port}/hooks`))).resolves.toMatchObject({
      result: 'target_refused',
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a name re-pointed to loopback after it passed the registration check (DNS rebinding)', async () => {
    zone.set('hooks.example.com', [{ address: '93.184.216.34', family: 4 }]);
    await expect(
      checkWebhookTarget(`https://hooks.example.com:${port}/hooks`, { policy: PRODUCTION_TARGET_POLICY, resolver }),
    ).resolves.toMatchObject({ ok: true });
    zone.set('hooks.example.com', [{ address: '127.0.0.1', family: 4 }]);
    await expect(deliverer().deliver(attempt(`https://hooks.example.com:${port}/hooks`))).resolves.toMatchObject({
      result: 'target_refused',
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('connects where the resolver says: the same name reaches the receiver once loopback is allowed', async () => {
    // The control for the cases above: the stub resolver really drives the connection, so their refusals are the guard's.
    zone.set('hooks.example.com', [{ address: '127.0.0.1', family: 4 }]);
    await expect(deliverer(true).deliver(attempt(`https://hooks.example.com:${port}/hooks`))).resolves.toMatchObject({
      result: 'delivered',
      status: 200,
    });
    expect(receiver.received).toHaveLength(1);
  });

  it('refuses private addresses even under the local-development switch', async () => {
    zone.set('hooks.example.com', [{ address: '10.20.30.40', family: 4 }]);
    const outcome = await deliverer(true).deliver(attempt(`https://hooks.example.com:${port}/hooks`));
    expect(outcome).toMatchObject({
      result: 'target_refused',
      error: 'refused by the SSRF guard: hooks.example.com resolves to 10.20.30.40, a private address',
    });
    expect(outcome.durationMs).toBeLessThan(5000);
  });
});
