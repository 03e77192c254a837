// No event lost: 1,000 deliveries (50 authorized invoices × 20 endpoints) while the webhook dispatcher is killed with
// SIGKILL at random moments and Redis (this platform's keys: queues included) is flushed once. Every delivery reaches
// the receiver: the relay's fan-out is one transaction with the outbox, and what Redis lost is re-driven from
// PostgreSQL by the sweep (a killed attempt becomes overdue when its claim's lease runs out).
import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { MAX_WEBHOOK_ENDPOINTS } from '@talao/persistence';
import { verifyWebhookSignature } from '@talao/webhooks';
import { startWebhookReceiver, type WebhookReceiver } from '@talao/webhooks/testing';
import { issue } from '../contract/support/contract.js';
import { type Platform, startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { register, SECRET, waitFor } from './support.js';

jest.setTimeout(300_000);

const INVOICES = 50;
let p: Platform;
let company: TestCompany;
let receiver: WebhookReceiver;

beforeAll(async () => {
  p = await startPlatform('webhook-crashes', {
    webhookDispatcherEnv: {
      WEBHOOK_RETRY_BASE_DELAY_MS: '100',
      WEBHOOK_DELIVERY_TIMEOUT_MS: '1000',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
      WEBHOOK_SWEEP_GRACE_MS: '2000',
      WEBHOOK_DISPATCHER_JOB_LOCK_MS: '2000',
      WEBHOOK_DISPATCHER_STALLED_CHECK_MS: '1000',
    },
  });
  company = await p.createCompany();
  receiver = await startWebhookReceiver();
  // Slow enough that kills land mid-attempt.
  receiver.respond = (res) => setTimeout(() => res.writeHead(200).end('ok'), 5 + Math.random() * 20);
});

afterAll(async () => {
  await receiver?.close();
  await p?.stop();
});

async function flushRedis(): Promise<void> {
  const redis = new Redis(p.redis.url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${p.redis.prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

it('delivers 100% of 1,000 deliveries through SIGKILLs of the dispatcher and a Redis flush', async () => {
  for (let n = 0; n < MAX_WEBHOOK_ENDPOINTS; n++) expect((await register(p, company, `${receiver.origin}/e${n}`)).status).toBe(201);
  const expected = INVOICES * MAX_WEBHOOK_ENDPOINTS;
  const issuing = Promise.all(Array.from({ length: INVOICES }, () => issue(p, company)));
  const uniqueDeliveries = () => new Set(receiver.received.map((r) => String(r.headers['service-delivery-id'])));
  // Kill at random moments while deliveries flow, flush Redis once in the middle, restart each time.
  let flushed = false;
  for (let kill = 0; kill < 4; kill++) {
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
    await p.dispatcher()!.kill('SIGKILL');
    if (!flushed && kill === 1) {
      await flushRedis();
      flushed = true;
    }
    await p.restartDispatcher();
  }
  const issued = await issuing;
  expect(issued.filter((answer) => answer.status === 201)).toHaveLength(INVOICES);
  await waitFor(`${expected} deliveries`, () => (uniqueDeliveries().size >= expected ? true : undefined), 180_000);
  expect(uniqueDeliveries().size).toBe(expected);
  // An attempt killed after the receiver's 200 and before its record is sent again (at least once): the log catches up.
  const delivered = () => p.prisma.webhookDelivery.count({ where: { companyId: company.id, status: 'delivered' } });
  await waitFor('every delivery recorded as delivered', async () => ((await delivered()) === expected ? true : undefined), 60_000);
  expect(await p.prisma.webhookDelivery.count({ where: { companyId: company.id } })).toBe(expected);
  // Every (event, endpoint) pair arrived, each signed.
  const pairs = new Set(receiver.received.map((r) => `${r.path} ${(JSON.parse(r.body.toString()) as { id: string }).id}`));
  expect(pairs.size).toBe(expected);
  expect(
    receiver.received.every((r) => verifyWebhookSignature({ header: r.headers['service-signature'], body: r.body, secrets: SECRET }).ok),
  ).toBe(true);
});
