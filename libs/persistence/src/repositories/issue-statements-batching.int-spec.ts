// The issue job's three statements on a coalescing runner (the issuer's wiring), against the run's real PostgreSQL
// (DATABASE_URL): concurrent calls share multi-row statements and each caller gets what a statement of its own gives.
import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '../prisma-client.js';
import { invoiceEvent, nfeDraft } from '../testing/issuance-fixtures.js';
import { useScratchCompany } from '../testing/test-database.js';
import type { FinalState, FinishOptions } from './issuance-records.js';
import { InvoicesRepository } from './invoices-repository.js';
import { coalescingSqlRunner, createSqlPool, pgPoolSqlRunner } from './sql-runner.js';
import { SubmissionsRepository } from './submissions-repository.js';
import { countingSqlRunner } from '../testing/counting-sql-runner.js';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const prisma = createPrismaClient(url);
const pool = createSqlPool(url, 4);
const scratchCompany = useScratchCompany(prisma, 'Lotes Ltda');

/** The repositories as the issuer wires them (batched), or one statement per call, both on the pool. */
function repositories(batched: boolean) {
  const count = countingSqlRunner(pgPoolSqlRunner(pool));
  const sql = batched ? coalescingSqlRunner(count.runner, { maxBatch: 32, maxInFlight: 2 }) : count.runner;
  return { invoices: new InvoicesRepository(prisma, sql), submissions: new SubmissionsRepository(prisma, sql), ...count };
}

afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const plain = new InvoicesRepository(prisma);
const newInvoice = (series: number, accessKey?: string) =>
  plain.createProcessing(
    nfeDraft(scratchCompany(), series, {
      request: { series },
      totalAmount: '2.00',
      ...(accessKey ? { describe: () => ({ accessKey }) } : {}),
    }),
  );
const event = (invoiceId: string, type: string) => invoiceEvent(scratchCompany(), invoiceId, type, { type });
const charge = (unitPrice?: string) => ({ documentType: 'nfe' as const, period: '2026-11', ...(unitPrice ? { unitPrice } : {}) });
const request = (invoiceId: string, requestBody: string) => ({
  invoiceId,
  companyId: scratchCompany(),
  operation: 'NFeAutorizacao4',
  endpoint: 'https://sim/a',
  requestBody,
});
const settled = async <T>(promises: Array<Promise<T>>) =>
  (await Promise.allSettled(promises)).map((r) => (r.status === 'fulfilled' ? r.value : `error: ${(r.reason as Error).message}`));
/** The calls all at once (batched), or one after the other in their order (the reference run). */
async function calling<T>(together: boolean, calls: Array<() => Promise<T>>) {
  if (together) return settled(calls.map((call) => call()));
  const results = [];
  for (const call of calls) results.push(...(await settled([call()])));
  return results;
}

/** What the database holds for an invoice, without the ids and clocks that differ between two runs. */
async function stored(invoiceId: string) {
  const invoice = await prisma.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
  const submissions = await prisma.submission.findMany({ where: { invoiceId }, orderBy: { attempt: 'asc' } });
  const events = await prisma.outboxEvent.findMany({ where: { aggregateId: invoiceId } });
  const credits = await prisma.usageEntry.findMany({ where: { invoiceId } });
  // The invoice's own id (in request bodies and event payloads) named alike, so two runs compare.
  return JSON.parse(
    JSON.stringify({
      invoice: [
        invoice.status,
        invoice.accessKey,
        invoice.protocol,
        invoice.statusCode,
        invoice.statusMessage,
        invoice.authorizedXml,
        invoice.issuedAt,
      ],
      submissions: submissions.map((s) => [
        s.attempt,
        s.requestBody,
        s.responseBody,
        s.httpStatus,
        s.outcome,
        s.statusCode,
        s.statusMessage,
        s.answeredAt !== null,
      ]),
      events: events.map((e) => [e.type, e.environment, e.companyId, e.payload]),
      credits: credits.map((c) => [c.documentType, c.period, c.credits, c.unitPrice?.toString() ?? null]),
    }).replaceAll(invoiceId, 'INVOICE'),
  ) as {
    invoice: Array<string | null>;
    submissions: Array<Array<string | number | boolean | null>>;
    events: Array<Array<string | object>>;
    credits: Array<Array<string | number | null>>;
  };
}

describe('issue statements on a coalescing runner', () => {
  it('snapshots: many reads in one statement, each caller its own snapshot (null when missing), as read one by one', async () => {
    const [a, b] = [await newInvoice(41), await newInvoice(41)];
    const single = repositories(false);
    await single.submissions.begin(request(a.id, '<a1/>'));
    await single.submissions.begin(request(a.id, '<a2/>'));
    const batched = repositories(true);
    const ids = [a.id, randomUUID(), b.id, a.id, 'not-a-uuid'];
    const together = await Promise.all(ids.map((id) => batched.invoices.loadForIssue(id)));
    const alone = await Promise.all(ids.map((id) => single.invoices.loadForIssue(id)));
    expect(together).toEqual(alone);
    expect(together.map((s) => s?.invoice.id ?? null)).toEqual([a.id, null, b.id, a.id, null]);
    expect(together[0]?.submissions.map((s) => s.requestBody)).toEqual(['<a1/>', '<a2/>']);
    // The malformed id never reaches the database; the other four share one statement.
    expect(batched.statements).toEqual([{ name: 'talao_issue_snapshots', rows: 4 }]);
  });

  it('begins: one statement numbers each invoice on from its last attempt, two of one invoice apart, in call order', async () => {
    const runs = [];
    for (const batched of [false, true]) {
      const repos = repositories(batched);
      const [a, b] = [await newInvoice(42), await newInvoice(42)];
      await repos.submissions.begin(request(a.id, 'earlier'));
      repos.statements.length = 0;
      const begin = (id: string, n: number) => repos.submissions.begin(request(id, `body ${n}`));
      const ids = [a.id, b.id, a.id, a.id];
      // One by one in call order (concurrent single statements of one invoice would race for its next number).
      const begun = batched ? await Promise.all(ids.map(begin)) : [];
      if (!batched) for (const [n, id] of ids.entries()) begun.push(await begin(id, n));
      const statements = [...repos.statements];
      expect(begun.map((s) => [s.invoiceId, s.attempt])).toEqual([
        [a.id, 2],
        [b.id, 1],
        [a.id, 3],
        [a.id, 4],
      ]);
      // What begin answers is what it stored (the record a caller transmits from).
      const listed = await repos.submissions.listByInvoice(a.id);
      expect(listed.slice(1)).toEqual(begun.filter((s) => s.invoiceId === a.id));
      runs.push({ statements, rows: [await stored(a.id), await stored(b.id)] });
    }
    expect(runs[1]!.rows).toEqual(runs[0]!.rows);
    expect(runs[0]!.statements).toHaveLength(4);
    expect(runs[1]!.statements).toEqual([{ name: 'talao_submission_begin_many', rows: 4 }]);
  });

  it('begins: a row that breaks a constraint fails its own caller only; a race on one invoice still meets the unique index', async () => {
    const repos = repositories(true);
    const [a, b] = [await newInvoice(43), await newInvoice(43)];
    const results = await settled([a.id, randomUUID(), b.id].map((id) => repos.submissions.begin(request(id, 'x'))));
    expect(results[1]).toMatch(/foreign key/);
    expect([results[0], results[2]]).toMatchObject([
      { invoiceId: a.id, attempt: 1 },
      { invoiceId: b.id, attempt: 1 },
    ]);
    // The batch failed as a whole, then each call ran alone (at once: two begins of one invoice would race there,
    // as concurrent calls without batching do).
    expect(repos.statements.map((s) => s.name)).toEqual(['talao_submission_begin_many', ...Array(3).fill('talao_submission_begin')]);

    // Two runners (two workers) beginning the same invoice at once: never two rows with one number.
    const other = repositories(true);
    const raced = await settled([repos, other, repos, other].map((r) => r.submissions.begin(request(a.id, 'raced'))));
    const attempts = raced.flatMap((r) => (typeof r === 'string' ? [] : [r.attempt]));
    expect(new Set(attempts).size).toBe(attempts.length);
    expect((await repos.submissions.listByInvoice(a.id)).map((s) => s.attempt)).toEqual([1, ...[...attempts].sort((x, y) => x - y)]);
  });

  it('finishes: per row, as one by one — moved only from processing, event only when moved, answer always, undefined keeps and null clears', async () => {
    const runs = [];
    for (const batched of [false, true]) {
      const repos = repositories(batched);
      const [full, keeps, clears, done, missing, twice, bare] = [
        await newInvoice(44, 'K-FULL'),
        await newInvoice(44, 'K-KEEPS'),
        await newInvoice(44, 'K-CLEARS'),
        await newInvoice(44),
        await newInvoice(44),
        await newInvoice(44),
        await newInvoice(44, 'K-BARE'),
      ];
      await prisma.invoice.update({ where: { id: clears.id }, data: { statusCode: '999', statusMessage: 'before', protocol: 'P0' } });
      await prisma.invoice.update({ where: { id: keeps.id }, data: { statusCode: '998', statusMessage: 'kept', protocol: 'P1' } });
      const submission = async (invoiceId: string) => (await repos.submissions.begin(request(invoiceId, `req ${invoiceId}`))).id;
      const [sFull, sKeeps, sClears, sDone, sTwice1, sTwice2] = [
        await submission(full.id),
        await submission(keeps.id),
        await submission(clears.id),
        await submission(done.id),
        await submission(twice.id),
        await submission(twice.id),
      ];
      expect(
        await repos.invoices.finishWithEvent(done.id, { status: 'issued', protocol: 'P-DONE' }, event(done.id, 'invoice.authorized')),
      ).toBe(true);
      repos.statements.length = 0;
      const answer = (n: number) => ({
        responseBody: `<ret ${n}/>`,
        httpStatus: 200,
        outcome: 'authorized',
        statusCode: `10${n}`,
        statusMessage: `answer ${n}`,
      });
      const answered = (submissionId: string, n: number) => ({ answered: { submissionId, answer: answer(n) } });
      /** One call of the batch: the invoice moved to `state`, with an event of `type`. */
      const finish = (invoice: { id: string }, state: FinalState, type: string, options?: FinishOptions) => () =>
        repos.invoices.finishWithEvent(invoice.id, state, event(invoice.id, type), options);
      const issuedAt = new Date('2026-11-20T10:00:00.000Z');
      const all: FinalState = {
        status: 'issued',
        accessKey: 'K-NEW',
        protocol: 'P',
        statusCode: '100',
        statusMessage: 'ok',
        authorizedXml: '<nfeProc/>',
        issuedAt,
      };
      const outcomes = await calling(batched, [
        finish(full, all, 'invoice.authorized', { ...answered(sFull, 1), charge: charge('0.7500') }),
        finish(keeps, { status: 'rejected' }, 'invoice.rejected', answered(sKeeps, 2)),
        finish(
          clears,
          { status: 'failed', protocol: null, statusCode: null, authorizedXml: null, issuedAt: null },
          'invoice.failed',
          answered(sClears, 3),
        ),
        finish(done, { status: 'rejected' }, 'invoice.rejected', { ...answered(sDone, 4), charge: charge() }),
        finish(missing, { status: 'failed' }, 'invoice.failed', answered(randomUUID(), 5)),
        finish(twice, { status: 'issued' }, 'invoice.authorized', { ...answered(sTwice1, 6), charge: charge() }),
        finish(twice, { status: 'rejected' }, 'invoice.rejected', answered(sTwice2, 7)),
        finish(bare, { status: 'failed', statusMessage: 'no answer' }, 'invoice.failed'),
      ]);
      expect(outcomes).toEqual([true, true, true, false, expect.stringMatching(/^error: submission .* not found$/), true, false, true]);
      runs.push({
        statements: repos.statements,
        rows: await Promise.all([full, keeps, clears, done, missing, twice, bare].map((i) => stored(i.id))),
      });
    }
    expect(runs[1]!.rows).toEqual(runs[0]!.rows);
    const [full, keeps, clears, done, , twice] = runs[1]!.rows;
    expect(full!.invoice).toEqual(['issued', 'K-NEW', 'P', '100', 'ok', '<nfeProc/>', '2026-11-20T10:00:00.000Z']);
    expect(keeps!.invoice).toEqual(['rejected', 'K-KEEPS', 'P1', '998', 'kept', null, null]);
    expect(clears!.invoice).toEqual(['failed', 'K-CLEARS', null, null, 'before', null, null]);
    expect(done!.invoice).toEqual(['issued', null, 'P-DONE', null, null, null, null]);
    expect(done!.submissions.map((s) => s.slice(2))).toEqual([['<ret 4/>', 200, 'authorized', '104', 'answer 4', true]]);
    expect(done!.events.map((e) => e[0])).toEqual(['invoice.authorized']);
    expect(twice!.invoice[0]).toBe('issued');
    expect(twice!.submissions.map((s) => s[2])).toEqual(['<ret 6/>', '<ret 7/>']);
    expect(twice!.events.map((e) => e[0])).toEqual(['invoice.authorized']);
    // A credit only where the statement moved the invoice, with its own price.
    expect([full!.credits, done!.credits, twice!.credits]).toEqual([[['nfe', '2026-11', 1, '0.75']], [], [['nfe', '2026-11', 1, null]]]);
    // Batched: seven calls in one statement; the second finish of `twice` ran alone after it.
    expect(runs[0]!.statements).toHaveLength(8);
    expect(runs[1]!.statements.map((s) => [s.name, s.rows])).toEqual([
      ['talao_finish_many', 7],
      ['talao_finish_0_answered', 1],
    ]);
  });

  it('finishes: a row that breaks a constraint fails its own caller only', async () => {
    const repos = repositories(true);
    const [a, b] = [await newInvoice(45), await newInvoice(45)];
    const ghostCompany = { ...event(b.id, 'invoice.failed'), companyId: randomUUID() };
    const outcomes = await settled([
      repos.invoices.finishWithEvent(a.id, { status: 'issued' }, event(a.id, 'invoice.authorized')),
      repos.invoices.finishWithEvent(b.id, { status: 'failed' }, ghostCompany),
    ]);
    expect(outcomes[0]).toBe(true);
    expect(outcomes[1]).toMatch(/foreign key/);
    expect((await stored(a.id)).invoice[0]).toBe('issued');
    expect(await stored(b.id)).toMatchObject({ invoice: ['processing', null, null, null, null, null, null], events: [] });
    expect(repos.statements.map((s) => s.name)).toEqual(['talao_finish_many', 'talao_finish_0', 'talao_finish_0']);
  });
});
