// No event lost: 1,000 deliveries (50 authorized invoices × 20 endpoints) while the webhook dispatcher is killed with
// SIGKILL at random moments and Redis (this platform's keys: queues included) is flushed once. Every delivery reaches
// the receiver: the relay's fan-out is one transaction with the outbox, and what Redis lost is re-driven from
// PostgreSQL by the sweep (a killed attempt becomes overdue when its claim's lease runs out).
import { jest } from '@jest/globals';
import { MAX_WEBHOOK_ENDPOINTS } from '@talao/persistence';
import { verifyWebhookSignature } from '@talao/webhooks';
import { issue } from '../contract/support/contract.js';
import { CHAOS_ENV } from '../support/chaos-env.js';
import { deleteRedisKeys } from '../support/platform-context.js';
import { register, SECRET, useWebhookPlatform, waitFor } from './support.js';

jest.setTimeout(300_000);

const INVOICES = 50;
const webhooks = useWebhookPlatform('webhook-crashes', CHAOS_ENV['webhook-dispatcher']);

beforeAll(() => {
  // Slow enough that kills land mid-attempt.
  webhooks().receiver.respond = (res) => setTimeout(() => res.writeHead(200).end('ok'), 5 + Math.random() * 20);
});

it('delivers 100% of 1,000 deliveries through SIGKILLs of the dispatcher and a Redis flush', async () => {
  const { p, company, receiver } = webhooks();
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
      await deleteRedisKeys(p.redis.url, p.redis.prefix);
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
