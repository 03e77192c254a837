// The schedule: received-sync keeps one job scheduler per company with a certificate and an API key (stable id,
// an offset per company within the interval), and a scheduled sync collects documents with no call from anyone.
import { jest } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { type ReceivedPlatform, startReceivedPlatform } from './support/received-platform.js';
import { waitFor } from '../support/wait-for.js';

jest.setTimeout(120_000);

let p: ReceivedPlatform;

beforeAll(async () => {
  p = await startReceivedPlatform('received-schedule', {
    RECEIVED_SYNC_SCHEDULES: 'on',
    RECEIVED_SYNC_INTERVAL_MS: '3000',
    RECEIVED_SYNC_RECONCILE_INTERVAL_MS: '500',
  });
});

afterAll(async () => {
  await p?.stop();
});

it('collects a company’s documents on its schedule, with no call, and drops the scheduler when the certificate goes', async () => {
  const c = await p.createCompany();
  await p.sim.control('POST', '/_control/third-party-documents', { recipientTaxId: c.taxId, environment: 'homologation', count: 2 });
  const rows = await waitFor(
    'the scheduled sync',
    async () => {
      const list = await p.api('GET', '/api/v1/received-invoices', c.key);
      return list.body['total'] === 2 ? list : undefined;
    },
    30_000,
  );
  expect(rows.status).toBe(200);

  // One scheduler for the company, under its stable id.
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const queue = new Queue('received', { connection: redis, prefix: `${p.redisPrefix}bull` });
  try {
    const ids = (await queue.getJobSchedulers(0, -1)).map((s) => s.id ?? s.key);
    expect(ids.filter((id) => id.includes(c.id))).toEqual([`rs-${c.id}-h`]);
    // Without an active certificate the next reconcile removes it.
    await p.prisma.certificate.updateMany({ where: { companyId: c.id }, data: { replacedAt: new Date() } });
    await waitFor(
      'the scheduler removed',
      async () => {
        const left = (await queue.getJobSchedulers(0, -1)).map((s) => s.id ?? s.key);
        return left.some((id) => id.includes(c.id)) ? undefined : true;
      },
      10_000,
    );
  } finally {
    await queue.close();
    redis.disconnect();
  }
});
