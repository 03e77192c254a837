// The create side (configuration check, quota, numbers, reissue) and recovery (sweeper, worker crash after send)
// against the run's PostgreSQL and Redis and the simulator as a real process.
import { jest } from '@jest/globals';
import { type AuthorizationResult, SefazClient, type SefazCallContext, type SefazPreparedCall } from '@talao/authorizer-clients';
import {
  AlreadyReissuedError,
  createInvoice,
  InvalidInvoiceStateError,
  InvoiceValidationError,
  issueInvoice,
  IssuerNotConfiguredError,
  NumberConflictError,
  QuotaExceededError,
  reissueInvoice,
  sweepStuckInvoices,
} from '@talao/issuance';
import { sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { Prisma } from '@talao/persistence';
import { useHarness } from './support/issuer-harness.js';

jest.setTimeout(60_000);

const h = useHarness({ worker: false });

/** Create side only: the job is not consumed (no worker runs in this file until the sweeper tests). */
const create = (
  companyId: string,
  environment: 'homologation' | 'production' = 'homologation',
  body: Record<string, unknown> = sampleNfeRequest(),
) => createInvoice(h().createDeps, { companyId, environment, body });
const run = (invoiceId: string) => issueInvoice(h().issueDeps, invoiceId, { finalAttempt: false });

describe('configuration check', () => {
  it('the job checks again: a company changed after the request (no approximate taxes for its NFS-e) ends it failed, not processing for ever', async () => {
    const companyId = await h().createCompany();
    const { invoice } = await create(companyId, 'homologation', sampleNfseRequest());
    // An operator's change between the request and its job (a backlog, Redis lost, a retry after an outage).
    await h().prisma.company.update({ where: { id: companyId }, data: { approximateTaxes: Prisma.DbNull } });
    await run(invoice.id);
    const stored = await h().prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(stored.status).toBe('failed');
    expect(stored.statusMessage).toMatch(/^The company cannot issue: approximate_taxes/);
    expect(await h().prisma.submission.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it('names everything missing at once (certificate, state registration)', async () => {
    const companyId = await h().createCompany({ certificate: false, stateRegistration: null });
    const error = await create(companyId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssuerNotConfiguredError);
    expect((error as IssuerNotConfiguredError).missing).toEqual(['certificate (no A1 certificate uploaded)', 'state registration']);
    expect(await h().prisma.invoice.count({ where: { companyId } })).toBe(0);
  });

  it('refuses an invalid request with the field error before anything is reserved', async () => {
    const companyId = await h().createCompany();
    const body = sampleNfeRequest();
    (body['items'] as Array<Record<string, unknown>>)[0]!['amount'] = '1.00';
    const error = await create(companyId, 'homologation', body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvoiceValidationError);
    expect((error as InvoiceValidationError).errors[0]).toMatchObject({ code: 'ITEM_TOTAL_MISMATCH', field: 'items[0].amount' });
    expect(await h().prisma.numberSequence.count({ where: { companyId } })).toBe(0);
  });
});

describe('production quota', () => {
  it('stops at the quota without an overage price, counting in-flight invoices; homologation stays free', async () => {
    const companyId = await h().createCompany({ productionQuota: 2 });
    const first = await create(companyId, 'production');
    await run(first.invoice.id);
    expect(await h().prisma.usageEntry.count({ where: { companyId } })).toBe(1);
    await create(companyId, 'production'); // in flight: counts against the quota
    const error = await create(companyId, 'production').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ quota: 2, used: 2 });
    await expect(create(companyId, 'homologation')).resolves.toMatchObject({ enqueued: true });
  });

  it('counts concurrent requests one after another: a burst gets exactly the quota, the rest 402', async () => {
    const companyId = await h().createCompany({ productionQuota: 3 });
    const answers = await Promise.allSettled(Array.from({ length: 12 }, () => create(companyId, 'production')));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    const refusals = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected').map((a) => a.reason as unknown);
    expect(refusals).toHaveLength(9);
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(QuotaExceededError);
    expect(await h().prisma.invoice.count({ where: { companyId, environment: 'production' } })).toBe(3);
  });
});

describe('numbers', () => {
  it('a number given by the request is used; giving it again is a conflict', async () => {
    const companyId = await h().createCompany();
    const { invoice } = await create(companyId, 'homologation', sampleNfeRequest({ series: 3, number: 42 }));
    expect([invoice.series, invoice.number]).toEqual([3, 42]);
    await expect(create(companyId, 'homologation', sampleNfeRequest({ series: 3, number: 42 }))).rejects.toBeInstanceOf(
      NumberConflictError,
    );
  });
});

/** The job's result, whose `decided` must be exactly what PostgreSQL now holds (the gateway answers from it). */
async function expectDecided(result: unknown, invoiceId: string, status: string): Promise<void> {
  const stored = await h().prisma.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
  expect(result).toEqual({
    kind: 'final',
    status,
    decided: {
      status: stored.status,
      accessKey: stored.accessKey,
      protocol: stored.protocol,
      statusCode: stored.statusCode,
      statusMessage: stored.statusMessage,
      contingency: stored.contingency,
      issuedAt: stored.issuedAt?.toISOString() ?? null,
      invalidatedById: stored.invalidatedById,
    },
  });
}

describe('reissue', () => {
  it('only rejected or failed invoices; the stored items under a new number, linked to the original', async () => {
    const companyId = await h().createCompany();
    await h().sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '778', count: 1 } });
    const { invoice: rejected } = await create(companyId);
    await expectDecided(await run(rejected.id), rejected.id, 'rejected');

    const { invoice: again } = await reissueInvoice(h().createDeps, { companyId, environment: 'homologation', invoiceId: rejected.id });
    expect(again.reissueOfId).toBe(rejected.id);
    expect(again.number).toBe(rejected.number + 1);
    expect(again.totalAmount).toBe(rejected.totalAmount);
    await expectDecided(await run(again.id), again.id, 'issued');

    await expect(reissueInvoice(h().createDeps, { companyId, environment: 'homologation', invoiceId: again.id })).rejects.toBeInstanceOf(
      InvalidInvoiceStateError,
    );
    // Once: the rejected attempt was reissued; reissuing it again names the invoice that replaced it.
    await expect(reissueInvoice(h().createDeps, { companyId, environment: 'homologation', invoiceId: rejected.id })).rejects.toMatchObject({
      kind: 'already_reissued',
      invoiceId: rejected.id,
      replacementId: again.id,
    });
    const other = await h().createCompany();
    await expect(
      reissueInvoice(h().createDeps, { companyId: other, environment: 'homologation', invoiceId: rejected.id }),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('reissue once, under concurrency', () => {
  it('five concurrent reissues of one rejected attempt create one invoice; the others name it', async () => {
    const companyId = await h().createCompany();
    await h().sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '778', count: 1 } });
    const { invoice: rejected } = await create(companyId);
    await run(rejected.id);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => reissueInvoice(h().createDeps, { companyId, environment: 'homologation', invoiceId: rejected.id })),
    );
    const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.invoice] : []));
    expect(created).toHaveLength(1);
    for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(result.reason).toBeInstanceOf(AlreadyReissuedError);
      expect(result.reason).toMatchObject({ invoiceId: rejected.id, replacementId: created[0]!.id });
    }
    expect(await h().prisma.invoice.count({ where: { companyId, reissueOfId: rejected.id } })).toBe(1);
  });
});

describe('recovery', () => {
  it('the worker dies after sending: the next run consults first and never sends a second document', async () => {
    const companyId = await h().createCompany();
    const { invoice } = await create(companyId);
    // A client that transmits, then "dies" before the answer is recorded (the submission keeps a null outcome).
    class DyingClient extends SefazClient {
      override prepareAuthorization(
        ctx: SefazCallContext,
        input: { signedNfe: string; lotId: string },
      ): SefazPreparedCall<AuthorizationResult> {
        const call = super.prepareAuthorization(ctx, input);
        return {
          ...call,
          async send() {
            await call.send();
            throw new Error('worker killed after sending');
          },
        };
      }
    }
    const dying = new DyingClient(h().sefazOptions);
    await expect(issueInvoice({ ...h().issueDeps, sefaz: dying }, invoice.id, { finalAttempt: false })).rejects.toThrow('worker killed');
    expect((await h().prisma.submission.findMany({ where: { invoiceId: invoice.id } })).map((s) => s.outcome)).toEqual([null]);

    await expectDecided(await run(invoice.id), invoice.id, 'issued');
    const submissions = await h().prisma.submission.findMany({ where: { invoiceId: invoice.id }, orderBy: { attempt: 'asc' } });
    expect(submissions.map((s) => [s.operation, s.outcome])).toEqual([
      ['NFeAutorizacao4', null],
      ['NFeConsultaProtocolo4', 'accepted'],
    ]);
    const stored = await h().prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    const held = await h().sim.control('GET', `/_control/documents/${stored.accessKey}`);
    expect(String(held.json['nProt'])).toBe(stored.protocol);
  });

  it('the sweeper re-drives an invoice whose job never reached Redis, and leaves queued ones alone', async () => {
    const companyId = await h().createCompany();
    const refusing = { ...h().createDeps, queue: { add: () => Promise.reject(new Error('redis flushed')) } };
    const lost = await createInvoice(refusing, { companyId, environment: 'homologation', body: sampleNfeRequest() });
    expect(lost.enqueued).toBe(false);
    const queued = await create(companyId);

    const report = await sweepStuckInvoices(
      { ...h().sweepDeps, now: () => new Date(Date.now() + 60_000) },
      { staleAfterMs: 30_000, batchSize: 1000 },
    );
    expect(report.redriven).toContain(lost.invoice.id);
    expect(report.redriven).not.toContain(queued.invoice.id);
    expect(report.alreadyQueued).toBeGreaterThanOrEqual(1);

    await h().startWorker();
    expect((await h().waitForFinal(lost.invoice.id)).status).toBe('issued');
    expect((await h().waitForFinal(queued.invoice.id)).status).toBe('issued');
  });
});
