// The NF-e distribution sync use case against the real simulator and PostgreSQL: documents and events stored once,
// the cursor committed with each page, 137 / 656 back-off recorded, one sync per tax id at a time.
import { randomBytes } from 'node:crypto';
import { MutualTlsAgentPool, SefazClient } from '@talao/authorizer-clients';
import { CertificateCache } from '@talao/authorizer-exchange';
import {
  CertificatesRepository,
  CertificateVault,
  CompaniesRepository,
  createPrismaClient,
  createSqlPool,
  ReceivedDocumentsReads,
  ReceivedDocumentsRepository,
} from '@talao/persistence';
import { type SyncReceivedDeps, syncReceivedNfe } from '@talao/received-invoices';
import { type RunningSimulator, startSimulator } from '../authorizers/support/simulator-process.js';
import { createIssuingCompany } from '../support/issuing-company.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const quiet = { info: () => undefined, warn: () => undefined };

describe('received-invoice sync (use case, real simulator and PostgreSQL)', () => {
  let sim: RunningSimulator;
  const prisma = createPrismaClient(databaseUrl);
  const pool = createSqlPool(databaseUrl, 6);
  const certificates = new CertificatesRepository(prisma, new CertificateVault(randomBytes(32).toString('base64')));
  const received = new ReceivedDocumentsRepository(pool);
  const reads = new ReceivedDocumentsReads(pool);
  let agents: MutualTlsAgentPool;
  let deps: SyncReceivedDeps;
  const companyIds: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator();
    agents = new MutualTlsAgentPool({ caBundlePem: sim.caCertificatePem });
    const base = { homologation: sim.baseUrl, production: sim.baseUrl };
    deps = {
      companies: new CompaniesRepository(prisma),
      certificates,
      certificateCache: new CertificateCache(),
      received,
      sefaz: new SefazClient({ agents, baseUrlOverrides: base, timeouts: { connectMs: 2_000, readMs: 3_000 } }),
      logger: quiet,
    };
  }, 60_000);

  afterAll(async () => {
    if (companyIds.length) await prisma.company.deleteMany({ where: { id: { in: companyIds } } });
    agents?.destroy();
    await pool.end();
    await prisma.$disconnect();
    await sim?.stop();
  });

  async function company(): Promise<{ id: string; taxId: string }> {
    const id = await createIssuingCompany({ prisma, certificates, sim }, { productionQuota: null });
    companyIds.push(id);
    const row = await prisma.company.findUniqueOrThrow({ where: { id } });
    return { id, taxId: row.taxId };
  }

  const feed = (recipientTaxId: string, extra: Record<string, unknown> = {}) =>
    sim.control('POST', '/_control/third-party-documents', { recipientTaxId, environment: 'homologation', ...extra });
  const list = (companyId: string) => reads.list({ companyId, environment: 'homologation', page: 1, pageSize: 100 });

  it('pages through the feed to maxNSU, stores each document once, links events, and keeps ultNSU', async () => {
    const { id, taxId } = await company();
    // 60 summaries: two pages of the 50-document feed.
    await feed(taxId, { count: 50 });
    const last = await feed(taxId, { count: 10, value: '1234.56' });
    const full = await feed(taxId, { full: true, value: '99.90' });
    const cancelledKey = ((last.json.documents as Array<{ accessKey: string }>)[0] as { accessKey: string }).accessKey;
    await sim.control('POST', `/_control/third-party-documents/${cancelledKey}/cancellation`);

    const first = await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' });
    expect(first).toMatchObject({ kind: 'synced', documents: 62, events: 1, pages: 2, code: '138' });
    const stored = await list(id);
    expect(stored.total).toBe(61);
    const withFull = stored.data.find((d) => d.accessKey === full.json.accessKey);
    expect(withFull).toMatchObject({ hasFull: true, totalValue: '99.90', situation: 'authorized' });
    const cancelled = stored.data.find((d) => d.accessKey === cancelledKey);
    expect(cancelled).toMatchObject({ situation: 'cancelled', totalValue: '1234.56' });
    expect(cancelled?.events).toEqual([expect.objectContaining({ eventType: '110111', sequence: 1 })]);
    expect((await reads.xml(id, 'homologation', String(full.json.accessKey)))?.xml).toMatch(/^<nfeProc /);
    const state = await received.syncState({ companyId: id, environment: 'homologation', channel: 'nfe' });
    expect(state.lastNsu).toBe('000000000000063');
    expect(state.blockedUntil).toBeNull();
  }, 60_000);

  it('after 137 records an hour of back-off and asks nothing more; 656 is recorded with the reason', async () => {
    const { id, taxId } = await company();
    await feed(taxId);
    expect(await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' })).toMatchObject({ kind: 'synced', documents: 1 });
    const nothingNew = await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' });
    expect(nothingNew).toMatchObject({ kind: 'synced', documents: 0, code: '137' });
    const queries = (await sim.control('GET', `/_control/distribution/${taxId}`)).json.queries;
    const blocked = await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' });
    expect(blocked).toMatchObject({ kind: 'blocked', code: '137' });
    const until = new Date((blocked as { until: string }).until).getTime();
    expect(until - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((await sim.control('GET', `/_control/distribution/${taxId}`)).json.queries).toBe(queries);

    // Forget our own pause (as if the hour had passed here but not at the authority): the authority answers 656.
    await prisma.receivedSyncState.updateMany({ where: { companyId: id }, data: { blockedUntil: null } });
    const refused = await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' });
    expect(refused).toMatchObject({ kind: 'blocked', code: '656' });
    const state = await received.syncState({ companyId: id, environment: 'homologation', channel: 'nfe' });
    expect(state.blockedCode).toBe('656');
    expect(state.blockedReason).toMatch(/Consumo Indevido/i);
    expect(state.blockedUntil!.getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
  }, 60_000);

  it('runs one sync per tax id at a time: while another holds the lock, a sync answers busy and asks nothing', async () => {
    const { id, taxId } = await company();
    await feed(taxId, { count: 50 });
    await feed(taxId, { count: 50 });
    const scope = { companyId: id, environment: 'homologation', channel: 'nfe' } as const;
    const whileHeld = await received.withTaxIdLock(taxId, scope, () =>
      syncReceivedNfe(deps, { companyId: id, environment: 'homologation' }),
    );
    expect(whileHeld).toEqual({ kind: 'busy' });
    expect((await sim.control('GET', `/_control/distribution/${taxId}`)).json.queries).toBe(0);
    expect(await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' })).toMatchObject({ kind: 'synced', pages: 2 });
    expect((await list(id)).total).toBe(100);
  }, 60_000);

  it('is idempotent: the same page committed again (a crash before the cursor moved) stores nothing twice', async () => {
    const { id, taxId } = await company();
    await feed(taxId, { count: 5 });
    await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' });
    // Rewind the cursor as if the page's commit had been lost: the re-read page lands on the same rows.
    await prisma.receivedSyncState.updateMany({ where: { companyId: id }, data: { lastNsu: '000000000000000' } });
    await feed(taxId, { count: 1 });
    const again = await syncReceivedNfe(deps, { companyId: id, environment: 'homologation' });
    expect(again).toMatchObject({ kind: 'synced', documents: 6 });
    expect((await list(id)).total).toBe(6);
  }, 60_000);
});
