// Chaos: 200 mixed amendments (100 cancellations, 100 correction letters) through the HTTP API while the canceller is
// killed with SIGKILL at random moments (and started again), and the simulator drops about 10% of its answers after
// registering the event (the lost-response case). Afterwards: every amendment is decided and registered, the
// simulator holds exactly one event per request, and no 573 (duplicate event) reached a client or the record.
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startPlatform } from '../issuance/support/platform.js';
import { CHAOS_ENV } from '../support/chaos-env.js';
import { sendWhileKilling } from '../support/load-under-kills.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(420_000);

const DOCUMENTS = 200;
const CLIENTS = 10;
const REASON = 'Pedido cancelado pelo cliente antes da entrega';
const CORRECTION = 'Onde se le volume 1 leia-se volumes 1 e 2 (embalagem dupla)';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const p = startedForFile('platform', () =>
  startPlatform('canceller-chaos', {
    canceller: true,
    // The chaos settings: a killed worker's jobs return to the queue after the lock expires (2 s), checked every
    // second; the sweeper enqueues again what is pending without a live job (a job that gave up after repeated kills).
    cancellerEnv: CHAOS_ENV.canceller,
    gatewayEnv: { ...CHAOS_ENV.gateway, ISSUE_WAIT_MS: '5000', AMENDMENT_WAIT_MS: '1500' },
  }),
);

it('SIGKILLed canceller + 10% dropped answers: every amendment decided once, one event each at SEFAZ, no 573', async () => {
  const company = await p.createCompany();
  const keys: string[] = [];
  let issued = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (issued < DOCUMENTS) {
        issued += 1;
        const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
        expect(created.status).toBe(201);
        keys.push(String(created.body.access_key));
      }
    }),
  );
  // Even documents are cancelled, odd ones get a correction letter.
  const operation = (index: number) =>
    index % 2 === 0
      ? { path: `/api/v1/invoices/${keys[index]}/cancel`, body: { reason: REASON } }
      : { path: `/api/v1/invoices/${keys[index]}/correction`, body: { correction: CORRECTION } };
  const answers: Array<{ status: number; code: unknown }> = [];
  const kills = await sendWhileKilling({ requests: keys.length, clients: CLIENTS, restart: () => p.restartCanceller() }, async (index) => {
    // About one answer in ten is dropped after the simulator registered the event (re-armed through the run).
    if (index % 10 === 5) await p.sim.control('PUT', '/_control/faults/*', { dropResponses: 1 });
    const { path, body } = operation(index);
    const answer = await p.api('POST', path, { key: company.homologationKey, body });
    answers.push({ status: answer.status, code: (answer.body.detail as Record<string, unknown> | undefined)?.code });
  });
  expect(kills).toBeGreaterThan(0);
  expect(answers).toHaveLength(DOCUMENTS);
  expect(answers.filter((a) => a.status !== 200 && a.status !== 202)).toEqual([]);

  // Recovery: stalled jobs return to the restarted worker; the sweeper enqueues again an amendment whose job gave up.
  const deadline = Date.now() + 240_000;
  let pending = await p.prisma.amendment.findMany({ where: { companyId: company.id, status: 'pending' } });
  while (pending.length > 0 && Date.now() < deadline) {
    await sleep(1_000);
    pending = await p.prisma.amendment.findMany({ where: { companyId: company.id, status: 'pending' } });
  }
  expect(pending).toEqual([]);

  const amendments = await p.prisma.amendment.findMany({ where: { companyId: company.id } });
  expect(amendments).toHaveLength(DOCUMENTS);
  expect(amendments.filter((a) => a.status !== 'registered').map((a) => [a.kind, a.statusCode, a.statusMessage])).toEqual([]);
  expect(await p.prisma.invoice.count({ where: { companyId: company.id, status: 'cancelled' } })).toBe(DOCUMENTS / 2);
  for (const [index, key] of keys.entries()) {
    const held = await p.sim.control('GET', `/_control/documents/${key}`);
    const events = held.json['events'] as Array<{ tpEvento: string; nSeqEvento: number }>;
    expect(events.map((e) => `${e.tpEvento}/${e.nSeqEvento}`)).toEqual([index % 2 === 0 ? '110111/1' : '110110/1']);
  }
  const outbox = await p.prisma.outboxEvent.groupBy({
    by: ['type'],
    where: { companyId: company.id, type: { in: ['invoice.cancelled', 'invoice.corrected'] } },
    _count: true,
  });
  expect(Object.fromEntries(outbox.map((row) => [row.type, row._count]))).toEqual({
    'invoice.cancelled': DOCUMENTS / 2,
    'invoice.corrected': DOCUMENTS / 2,
  });
  // The lost-response path was exercised, and no duplicate event (573) was ever surfaced: the record holds none as a decision.
  expect(await p.prisma.submission.count({ where: { companyId: company.id, operation: 'NFeConsultaProtocolo4' } })).toBeGreaterThan(0);
  expect(amendments.filter((a) => a.statusCode === '573')).toEqual([]);
  expect(answers.filter((a) => a.code === '573')).toEqual([]);
});
