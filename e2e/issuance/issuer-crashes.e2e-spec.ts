// Chaos: 200 issuances through the HTTP API while the issuer process is killed with SIGKILL at random moments (and
// started again), and the simulator drops about 10% of its answers after authorizing (the lost-response case).
// Afterwards: every invoice is in a final state, issued exactly once at the simulator (the document it holds carries
// the invoice's own protocol), and no duplicate rejection (204 duplicate NF-e, 539 duplicate with another key) ever
// happened. Bounded: recovery after the last kill waits for BullMQ's stalled-job check (the worker's 30 s lock).
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { sendWhileKilling } from '../support/load-under-kills.js';
import { startPlatform } from './support/platform.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(300_000);

const ISSUANCES = 200;
const CLIENTS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const p = startedForFile('platform', () =>
  startPlatform('chaos', {
    issuerEnv: { ISSUER_CONCURRENCY: '8', SWEEPER_INTERVAL_MS: '1000', SWEEPER_STALE_AFTER_MS: '5000', AUTHORIZER_READ_TIMEOUT_MS: '2000' },
    gatewayEnv: { ISSUE_WAIT_MS: '1500', RATE_LIMIT_CREATE_INVOICE: '100000' },
  }),
);

it('SIGKILLed issuer + 10% dropped answers: every invoice final, one document each, no 204/539', async () => {
  const company = await p.createCompany();
  const statuses: number[] = [];
  const kills = await sendWhileKilling({ requests: ISSUANCES, clients: CLIENTS, restart: () => p.restartIssuer() }, async (index) => {
    // About one answer in ten is dropped after the simulator authorized (re-armed, so drops spread over the run).
    if (index % 10 === 5) await p.sim.control('PUT', '/_control/faults/SP', { dropResponses: 1 });
    const response = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    statuses.push(response.status);
  });
  expect(kills).toBeGreaterThan(0);
  // Every request was answered by the gateway with an issuance outcome (201) or "still processing" (202).
  expect(statuses).toHaveLength(ISSUANCES);
  expect(statuses.every((s) => s === 201 || s === 202)).toBe(true);

  // Recovery: the restarted worker picks stalled jobs up; the sweeper re-drives anything else.
  const deadline = Date.now() + 180_000;
  let open = Infinity;
  while (Date.now() < deadline) {
    open = await p.prisma.invoice.count({ where: { companyId: company.id, status: 'processing' } });
    if (open === 0) break;
    await sleep(1_000);
  }
  expect(open).toBe(0);

  const invoices = await p.prisma.invoice.findMany({ where: { companyId: company.id } });
  expect(invoices).toHaveLength(ISSUANCES);
  expect(invoices.filter((i) => i.status !== 'issued').map((i) => [i.status, i.statusCode, i.statusMessage])).toEqual([]);
  const duplicates = await p.prisma.submission.count({ where: { companyId: company.id, statusCode: { in: ['204', '539'] } } });
  expect(duplicates).toBe(0);
  for (const invoice of invoices) {
    const held = await p.sim.control('GET', `/_control/documents/${invoice.accessKey}`);
    expect(held.status).toBe(200);
    expect(String(held.json['nProt'])).toBe(invoice.protocol);
  }
  // The lost-response path was exercised: some authorizations had no answer and were reconciled by a consult.
  expect(await p.prisma.submission.count({ where: { companyId: company.id, operation: 'NFeConsultaProtocolo4' } })).toBeGreaterThan(0);
});
