// The NF-e distribution sync use case against the real simulator and PostgreSQL: documents and events stored once,
// the cursor committed with each page, 137 / 656 back-off recorded, one sync per tax id at a time.
import { randomBytes } from 'node:crypto';
import { MutualTlsAgentPool, NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import { buildNfseCancellationRequest } from '@talao/fiscal-xml';
import { createSigner } from '@talao/xml-signing';
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
import { type SyncReceivedJobDeps, syncReceivedNfe, syncReceivedNfse } from '@talao/received-invoices';
import { signedDps } from '../authorizers/support/dps-fixture.js';
import { type RunningSimulator, startSimulator } from '../authorizers/support/simulator-process.js';
import { issueCompanyCertificate } from '../authorizers/support/test-companies.js';
import { createIssuingCompany, uniqueCnpj } from '../support/issuing-company.js';

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
  let deps: SyncReceivedJobDeps;
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
      nfse: new NfseNacionalClient({ agents, baseUrlOverrides: base, timeouts: { connectMs: 2_000, readMs: 3_000 } }),
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

  it('collects NFS-e from ADN with its own NSU: the taker’s documents and their cancellation, once', async () => {
    const { id, taxId } = await company();
    const providerTaxId = uniqueCnpj();
    const provider = await issueCompanyCertificate(sim, providerTaxId, 'PRESTADORA DE SERVICOS LTDA');
    const nfse = new NfseNacionalClient({ agents, baseUrlOverrides: { homologation: sim.baseUrl } });
    const ctx = { credentials: provider, environment: 'homologation' as const };
    const keys: string[] = [];
    for (const number of [1, 2]) {
      const issued = await nfse.emitDps(ctx, {
        signedDps: signedDps(provider, { cnpj: providerTaxId, number, takerCnpj: taxId }).signedDps,
      });
      if (issued.status !== 'authorized') throw new Error(`NFS-e not issued: ${JSON.stringify(issued)}`);
      keys.push(issued.protocol as string);
    }
    const request = buildNfseCancellationRequest({
      environment: 'homologation',
      applicationVersion: 'Talao 0.1.0',
      author: { cnpj: providerTaxId },
      accessKey: keys[0] as string,
      eventAt: new Date(),
      utcOffset: '-03:00',
      reason: '1',
      justification: 'Servico cobrado em duplicidade por erro',
    });
    const signedEventRequest = createSigner(provider).signDps(request.xml, request.id);
    expect(await nfse.sendEvent(ctx, { accessKey: keys[0] as string, signedEventRequest })).toMatchObject({ status: 'accepted' });
    // An NFS-e the company issued itself reaches its ADN feed too (ADN serves the provider's documents): not received.
    const own = await issueCompanyCertificate(sim, taxId, 'TOMADORA LTDA');
    const ownDps = signedDps(own, { cnpj: taxId, number: 1, takerCnpj: providerTaxId }).signedDps;
    expect(await nfse.emitDps({ credentials: own, environment: 'homologation' }, { signedDps: ownDps })).toMatchObject({
      status: 'authorized',
    });

    expect(await syncReceivedNfse(deps, { companyId: id, environment: 'homologation' })).toMatchObject({
      kind: 'synced',
      documents: 2,
      events: 1,
    });
    const stored = await reads.list({ companyId: id, environment: 'homologation', documentType: 'nfse', page: 1, pageSize: 10 });
    expect(stored.total).toBe(2);
    const cancelled = stored.data.find((d) => d.accessKey === keys[0]);
    expect(cancelled).toMatchObject({ issuerTaxId: providerTaxId, issuerName: expect.any(String), hasFull: true, situation: 'cancelled' });
    expect(cancelled?.totalValue).toMatch(/^\d+\.\d{2}$/);
    expect(cancelled?.events).toEqual([expect.objectContaining({ eventType: '101101', sequence: 1 })]);
    const state = await received.syncState({ companyId: id, environment: 'homologation', channel: 'nfse' });
    expect(state.lastNsu).toBe('000000000000004'); // past the company's own NFS-e, which was not stored
    // The NF-e cursor is untouched: each channel has its own NSU.
    expect((await received.syncState({ companyId: id, environment: 'homologation', channel: 'nfe' })).lastNsu).toBe('000000000000000');
    // Nothing new: an hour's pause, and the next run asks nothing.
    expect(await syncReceivedNfse(deps, { companyId: id, environment: 'homologation' })).toMatchObject({ kind: 'synced', documents: 0 });
    const queries = Number((await sim.control('GET', `/_control/distribution/${taxId}`)).json.adnQueries);
    expect(await syncReceivedNfse(deps, { companyId: id, environment: 'homologation' })).toMatchObject({ kind: 'blocked' });
    expect(Number((await sim.control('GET', `/_control/distribution/${taxId}`)).json.adnQueries)).toBe(queries);
    expect((await reads.list({ companyId: id, environment: 'homologation', page: 1, pageSize: 10 })).total).toBe(2);
  }, 60_000);
});
