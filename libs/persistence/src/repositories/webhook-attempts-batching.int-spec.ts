// The attempt statements with batching on (the dispatcher's wiring): concurrent claims and records share multi-row
// statements, and each caller still gets exactly its own row's answer, against the run's real PostgreSQL.
import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '../prisma-client.js';
import { countingSqlRunner } from '../testing/counting-sql-runner.js';
import { coalescingSqlRunner, createSqlPool, pgPoolSqlRunner } from './sql-runner.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries-repository.js';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const prisma = createPrismaClient(url);
const pool = createSqlPool(url, 4);
let companyId = '';
let endpointId = '';

beforeAll(async () => {
  const taxId = String(Date.now()).padStart(14, '7').slice(-14);
  const company = await prisma.company.create({
    data: { taxId, legalName: 'Ganchos Ltda', cityCode: '3550308', cityName: 'Sao Paulo', state: 'SP' },
  });
  companyId = company.id;
  const endpoint = await prisma.webhookEndpoint.create({
    data: {
      companyId,
      environment: 'homologation',
      url: 'https://hooks.example.com/x',
      secretEncrypted: Buffer.from('sealed'),
      events: [],
    },
  });
  endpointId = endpoint.id;
});

afterAll(async () => {
  await prisma.company.deleteMany({ where: { id: companyId } });
  await Promise.all([prisma.$disconnect(), pool.end()]);
});

function batchedRepository() {
  const sql = countingSqlRunner(pgPoolSqlRunner(pool));
  return { repository: new WebhookDeliveriesRepository(prisma, coalescingSqlRunner(sql.runner, { maxBatch: 64, maxInFlight: 1 })), sql };
}

async function pendingDeliveries(count: number, forEndpoint = endpointId): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await prisma.webhookDelivery.createMany({
    data: ids.map((id) => ({
      id,
      endpointId: forEndpoint,
      companyId,
      environment: 'homologation' as const,
      eventId: randomUUID(),
      event: 'invoice.authorized',
      invoiceId: randomUUID(),
      body: `{"id":"${id}"}`,
      nextAttemptAt: new Date(),
    })),
  });
  return ids;
}

const attemptLog = (result: string) => ({
  startedAt: new Date(),
  durationMs: 12.4,
  result,
  httpStatus: result === 'delivered' ? 200 : 500,
  error: result === 'delivered' ? null : 'HTTP 500',
  responseExcerpt: 'ok',
});

it('claims and records many deliveries in few statements, each caller with its own row', async () => {
  const { repository, sql } = batchedRepository();
  const ids = await pendingDeliveries(40);
  const claimed = await Promise.all(ids.map((id) => repository.claim(id, 1, 15_000)));
  expect(claimed.map((c) => c?.id)).toEqual(ids);
  expect(claimed.every((c) => c?.body === `{"id":"${c?.id}"}` && c.attempt === 1 && c.url === 'https://hooks.example.com/x')).toBe(true);
  expect(sql.statements.length).toBeLessThanOrEqual(3);
  expect(sql.named('talao_webhook_claim_many').length).toBeGreaterThanOrEqual(1);

  const retryAt = new Date(Date.now() + 30_000);
  await Promise.all(
    ids.map((id, n) =>
      n % 2 === 0
        ? repository.record(id, 1, attemptLog('delivered'), { status: 'delivered', nextAttemptAt: null })
        : repository.record(id, 1, attemptLog('http_error'), { status: 'pending', nextAttemptAt: retryAt }),
    ),
  );
  expect(sql.statements.length).toBeLessThanOrEqual(6);
  const rows = await prisma.webhookDelivery.findMany({ where: { id: { in: ids } }, include: { attemptLog: true } });
  for (const row of rows) {
    const n = ids.indexOf(row.id);
    expect(row.attempts).toBe(1);
    expect(row.attemptLog).toHaveLength(1);
    expect(row.attemptLog[0]).toMatchObject({ number: 1, durationMs: 12, result: n % 2 === 0 ? 'delivered' : 'http_error' });
    if (n % 2 === 0) expect(row).toMatchObject({ status: 'delivered', nextAttemptAt: null, deliveredAt: expect.any(Date) });
    else expect(row).toMatchObject({ status: 'pending', nextAttemptAt: retryAt, deliveredAt: null });
  }
});

it('gives one attempt to exactly one of two concurrent claims of it, and none to a stale or deleted one', async () => {
  const { repository } = batchedRepository();
  const [twice, stale, ...others] = await pendingDeliveries(6);
  const answers = await Promise.all([
    repository.claim(twice!, 1, 15_000),
    repository.claim(twice!, 1, 15_000),
    repository.claim(stale!, 2, 15_000), // attempt 2 before attempt 1: not current
    ...others.map((id) => repository.claim(id, 1, 15_000)),
  ]);
  expect(answers.slice(0, 2).filter((a) => a !== null)).toHaveLength(1);
  expect(answers[2]).toBeNull();
  expect(answers.slice(3).every((a) => a !== null)).toBe(true);

  const gone = await prisma.webhookEndpoint.create({
    data: {
      companyId,
      environment: 'homologation',
      url: 'https://gone.example.com/',
      secretEncrypted: Buffer.from('s'),
      events: [],
      deletedAt: new Date(),
    },
  });
  const [orphan] = await pendingDeliveries(1, gone.id);
  const [live] = await pendingDeliveries(1);
  const [orphanClaim, liveClaim] = await Promise.all([repository.claim(orphan!, 1, 15_000), repository.claim(live!, 1, 15_000)]);
  expect(orphanClaim).toBeNull();
  expect(liveClaim?.id).toBe(live);
});

it('records nothing for an attempt that is no longer current', async () => {
  const { repository } = batchedRepository();
  const [first, second] = await pendingDeliveries(2);
  await Promise.all([repository.claim(first!, 1, 15_000), repository.claim(second!, 1, 15_000)]);
  await Promise.all([
    repository.record(first!, 2, attemptLog('delivered'), { status: 'delivered', nextAttemptAt: null }), // never claimed
    repository.record(second!, 1, attemptLog('delivered'), { status: 'delivered', nextAttemptAt: null }),
  ]);
  const rows = await prisma.webhookDelivery.findMany({ where: { id: { in: [first!, second!] } }, orderBy: { status: 'asc' } });
  expect(rows.find((r) => r.id === first)?.status).toBe('pending');
  expect(rows.find((r) => r.id === second)?.status).toBe('delivered');
});
