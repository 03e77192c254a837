// Platform-wide chaos (issue 21): every app as a real process, a mixed load (NF-e and NFS-e issuance, cancellations,
// correction letters, numbering invalidations, received-invoice syncs, manifestations, PDFs,
// webhooks to a receiver on 127.0.0.1) while each worker is SIGKILLed at random moments and started again, the
// simulator loses 10% of its answers after processing them (dropRate), and this run's Redis keys are deleted once
// mid-load (SCAN + UNLINK of the platform's own prefix; never FLUSHALL: the server is shared). Afterwards, within a
// bounded settle time: 0 duplicate documents or events at the simulator, 0 rejections 204/539/573 surfaced, 0
// invoices outside a final state, 100% of webhook deliveries made, every NF-e number used or invalidable.
// Run with `npm run test:chaos` (not part of `npm test`). LOAD_SECONDS / SETTLE_SECONDS shorten or lengthen it.
import { jest } from '@jest/globals';
import { startWebhookReceiver, type WebhookReceiver } from '@talao/webhooks/testing';
import { type ChaosCompany, type ChaosPlatform, startChaosPlatform, WORKERS, type WorkerName } from './support/chaos-platform.js';
import { type Answered, MixedLoad, statusHistogram } from './support/mixed-load.js';
import { checkInvariants, settle } from './support/platform-invariants.js';

jest.setTimeout(540_000);

const LOAD_MS = Number(process.env.LOAD_SECONDS ?? 100) * 1_000;
const SETTLE_MS = Number(process.env.SETTLE_SECONDS ?? 150) * 1_000;
const CLIENTS = 8;
// Fed once before the load: a sync that reached the end of the feed (137) makes the worker wait an hour, as SEFAZ
// demands, so documents fed later would not be collected within the run.
const THIRD_PARTY_DOCUMENTS = 12;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let p: ChaosPlatform;
let receiver: WebhookReceiver;
let companies: ChaosCompany[];

beforeAll(async () => {
  p = await startChaosPlatform('chaos');
  receiver = await startWebhookReceiver();
  // Slow enough that a kill of the dispatcher lands mid-delivery.
  receiver.respond = (res) => setTimeout(() => res.writeHead(200).end('ok'), 5 + Math.random() * 20);
  companies = [await p.createCompany(), await p.createCompany()];
  for (const c of companies) {
    const registered = await p.api('POST', '/api/v1/webhooks', c.key, {
      url: `${receiver.origin}/${c.taxId}`,
      secret: 'whsec_chaos_0123456789abcdef',
      events: [],
    });
    if (registered.status !== 201) throw new Error(`webhook registration: ${registered.status} ${JSON.stringify(registered.body)}`);
  }
});

afterAll(async () => {
  await receiver?.close();
  await p?.stop();
});

/** Documents other companies issued to `c` (received-sync collects them), `count` at a time. */
async function feedThirdParty(c: ChaosCompany, count: number): Promise<number> {
  const fed = await p.control('POST', '/_control/third-party-documents', { recipientTaxId: c.taxId, environment: 'homologation', count });
  if (fed.status !== 201) throw new Error(`third-party documents: ${fed.status} ${JSON.stringify(fed.json)}`);
  return count;
}

it('mixed load through SIGKILLs of every worker, 10% lost answers and a Redis flush: nothing lost, nothing doubled', async () => {
  const started = Date.now();
  const fed = new Map<string, number>();
  for (const c of companies) fed.set(c.id, await feedThirdParty(c, THIRD_PARTY_DOCUMENTS));
  const faults = await p.control('PUT', '/_control/faults/*', { dropRate: 0.1 });
  expect(faults.status).toBe(200);

  const load = new MixedLoad(p, companies);
  const loadEnds = Date.now() + LOAD_MS;
  const kills: Record<WorkerName, number> = Object.fromEntries(WORKERS.map((w) => [w, 0])) as Record<WorkerName, number>;
  let flushedKeys = -1;

  // One monkey per worker, each killing its worker at random moments (every 5–15 s) until the load ends: a worker
  // slow to start again (Chromium) does not delay the kills of the others.
  const monkey = async (worker: WorkerName) => {
    while (Date.now() < loadEnds - 5_000) {
      await sleep(Math.min(5_000 + Math.random() * 10_000, Math.max(0, loadEnds - 5_000 - Date.now())));
      await p.restart(worker);
      kills[worker] += 1;
    }
  };
  const flusher = async () => {
    await sleep(LOAD_MS / 2);
    flushedKeys = await p.flushRedis();
  };
  await Promise.all([load.run(CLIENTS, () => Date.now() >= loadEnds), ...WORKERS.map(monkey), flusher()]);
  const loadMs = Date.now() - started;

  // The chaos ends with the load: answers flow again, and everything open must now reach a final state.
  const droppedAnswers = Number((await p.control('GET', '/_control/faults')).json['droppedAnswers']);
  await p.control('DELETE', '/_control/faults');
  const settled = await settle(
    p,
    companies.map((c) => c.id),
    SETTLE_MS,
  );
  // One last sync per company (through the gateway, as a client would): every document fed must be collected once.
  for (const c of companies) await p.api('POST', '/api/v1/received-invoices/sync', c.key);
  const receivedDeadline = Date.now() + 30_000;
  const received = async () =>
    Promise.all(
      companies.map((c) =>
        p.prisma.receivedDocument.count({ where: { companyId: c.id, environment: 'homologation', documentType: 'nfe' } }),
      ),
    );
  while (Date.now() < receivedDeadline && (await received()).some((n, i) => n < fed.get(companies[i]!.id)!)) await sleep(1_000);
  const collected = await received();

  // Every document printed at least once was printed (a render lost with a killed renderer or Redis is asked again).
  const pdfs = await printEveryRequestedPdf(load);

  const findings = await checkInvariants(p, companies, receiver, load.answers);
  const report = {
    seconds: { load: Math.round(loadMs / 1000), settle: Math.round(settled.ms / 1000), total: Math.round((Date.now() - started) / 1000) },
    kills,
    redisKeysFlushed: flushedKeys,
    simulatorAnswersDropped: droppedAnswers,
    requests: load.answers.length,
    networkRetries: load.networkRetries,
    statuses: statusHistogram(load.answers),
    examples: examplesOf(load.answers),
    pdfs,
    openAfterSettle: settled.open,
    receivedDocuments: { fed: [...fed.values()], collected },
    counts: findings.counts,
    violations: findings.violations,
  };
  console.log(`chaos report\n${JSON.stringify(report, null, 2)}`);
  if (findings.violations.length > 0) console.log(`gateway output\n${p.output('gateway').slice(0, 60).join('')}`);

  expect(Object.values(kills).every((n) => n >= 1)).toBe(true);
  expect(flushedKeys).toBeGreaterThan(0);
  expect(droppedAnswers).toBeGreaterThan(0);
  expect(settled.open).toEqual({ invoices: 0, amendments: 0, invalidations: 0, manifestations: 0, outbox: 0, deliveries: 0 });
  expect(collected).toEqual(companies.map((c) => fed.get(c.id)));
  expect(findings.violations).toEqual([]);
  expect(pdfs.unprinted).toEqual([]);
  // The load really mixed: documents of both kinds, amendments, invalidations, PDFs.
  expect(findings.counts['invoices issued']! + findings.counts['invoices cancelled']!).toBeGreaterThan(50);
  expect(findings.counts['amendments registered']).toBeGreaterThan(5);
  expect(report.statuses['pdf']?.[200] ?? 0).toBeGreaterThan(0);
});

/** One answer body per operation and status that is not a plain success, to read a failure's cause in the report. */
function examplesOf(answers: Answered[]): Record<string, unknown> {
  const examples: Record<string, unknown> = {};
  for (const a of answers) if (a.status >= 300) examples[`${a.operation} ${a.status}`] ??= a.body;
  return examples;
}

/** Asks again (within 90 s) for every PDF the load asked for and did not get: each must come out 200. */
async function printEveryRequestedPdf(load: MixedLoad) {
  const wanted = load.pdfRequests();
  const deadline = Date.now() + 90_000;
  let pending = [...wanted.filter((w) => !w.printed)];
  while (pending.length > 0 && Date.now() < deadline) {
    const still: typeof pending = [];
    for (const w of pending) {
      const answer = await p.api('GET', `/api/v1/invoices/${w.key}/pdf?document_type=${w.documentType}`, w.companyKey);
      if (answer.status !== 200) still.push(w);
    }
    pending = still;
    if (pending.length > 0) await sleep(1_000);
  }
  return { requested: wanted.length, printedDuringLoad: wanted.filter((w) => w.printed).length, unprinted: pending.map((w) => w.key) };
}
