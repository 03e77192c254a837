// The plans the hot path's statements keep. createSqlPool runs every statement on a generic plan, made once and kept:
// one made while a table is small may join a batch's ids to the table by scanning all of it, and keep doing so as
// the table grows (a benchmark once read 775,000 rows from a 3,000-row table in 20 s). The pools price scans and
// hash/merge joins out; this file runs the gateway's and the issuer's statements for real, single and batched, then
// asks PostgreSQL for the generic plan of each one on a connection of such a pool, and of a plain connection to show
// the probe sees the difference.
import { createRequire } from 'node:module';
import pg from 'pg';
import { createPrismaClient } from '../prisma-client.js';
import { InvoicesRepository } from './invoices-repository.js';
import { coalescingSqlRunner, createSqlPool, NUMBERING_POOL_OPTIONS, pgPoolSqlRunner } from './sql-runner.js';
import { SubmissionsRepository } from './submissions-repository.js';
import { countingSqlRunner } from '../testing/counting-sql-runner.js';

// pg's own rendering of a parameter (arrays as array literals, dates as timestamps), to write it as an SQL literal.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const prisma = createPrismaClient(url);
const sqlPool = createSqlPool(url, 4);
const numberingPool = createSqlPool(url, 2, NUMBERING_POOL_OPTIONS);
let companyId: string;

/** Every statement the repositories ran, by name: its text and the values of one run. */
const ran = new Map<string, { text: string; values: unknown[] }>();

beforeAll(async () => {
  const taxId = String(Date.now()).padStart(14, '5').slice(-14);
  companyId = (
    await prisma.company.create({ data: { taxId, legalName: 'Planos Ltda', cityCode: '3550308', cityName: 'Sao Paulo', state: 'SP' } })
  ).id;
  // The gateway's creation and the issue job's three statements, one call alone and three together each (the
  // statement of one row and the batched one), as the apps wire them.
  for (const batch of [1, 3]) {
    const recorded = [countingSqlRunner(pgPoolSqlRunner(sqlPool)), countingSqlRunner(pgPoolSqlRunner(numberingPool))];
    const sql = coalescingSqlRunner(recorded[0]!.runner);
    const invoices = new InvoicesRepository(prisma, sql, coalescingSqlRunner(recorded[1]!.runner));
    const submissions = new SubmissionsRepository(prisma, sql);
    const times = <T>(call: (i: number) => Promise<T>) => Promise.all(Array.from({ length: batch }, (_, i) => call(i)));
    const created = await times(() =>
      invoices.createProcessing({
        companyId,
        environment: 'homologation',
        documentType: 'nfe',
        series: 7,
        request: { n: 1 },
        totalAmount: '1.00',
      }),
    );
    await times((i) => invoices.loadForIssue(created[i]!.id));
    const begun = await times((i) =>
      submissions.begin({
        invoiceId: created[i]!.id,
        companyId,
        operation: 'NFeAutorizacao4',
        endpoint: 'https://sim/a',
        requestBody: '<NFe/>',
      }),
    );
    const event = (i: number, type: string) => ({
      companyId,
      environment: 'homologation' as const,
      type,
      aggregateId: created[i]!.id,
      payload: { invoice_id: created[i]!.id },
    });
    await invoices.setContingencyIdentity(created[0]!.id, `K${batch}`.padEnd(44, '6'), event(0, 'invoice.contingency_entered'));
    // The final statement with its answer, and (every other call) a production credit, alone and batched.
    await times((i) =>
      invoices.finishWithEvent(created[i]!.id, { status: 'issued', protocol: `P${i}` }, event(i, 'invoice.authorized'), {
        answered: {
          submissionId: begun[i]!.id,
          answer: { responseBody: '<ret/>', httpStatus: 200, outcome: 'authorized', statusCode: '100', statusMessage: 'ok' },
        },
        ...(i % 2 === 0 ? { charge: { documentType: 'nfe' as const, period: '2026-11', unitPrice: '0.2500' } } : {}),
      }),
    );
    for (const r of recorded) for (const [name, run] of r.lastRun) ran.set(name, run);
  }
});

afterAll(async () => {
  await prisma.company.delete({ where: { id: companyId } });
  await Promise.all([prisma.$disconnect(), sqlPool.end(), numberingPool.end()]);
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** The generic plan of `text` on `client`, as "Node Type" or "Node Type on relation" for every node. */
async function genericPlan(client: pg.PoolClient | pg.Client, text: string, values: unknown[]): Promise<string[]> {
  const literals = values.map((value) => {
    const prepared = prepareValue(value);
    return prepared === null ? 'NULL' : client.escapeLiteral(String(prepared));
  });
  await client.query('SET plan_cache_mode = force_generic_plan');
  await client.query(`PREPARE plan_probe AS ${text}`);
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (FORMAT JSON) EXECUTE plan_probe(${literals.join(', ')})`,
    );
    const nodes: string[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node['Relation Name'] ? `${node['Node Type']} on ${node['Relation Name']}` : node['Node Type']);
      node.Plans?.forEach(walk);
    };
    walk(rows[0]!['QUERY PLAN'][0]!.Plan);
    return nodes;
  } finally {
    await client.query('DEALLOCATE plan_probe');
  }
}

const scansOrHashJoins = (nodes: string[]) => nodes.filter((n) => n.startsWith('Seq Scan') || n === 'Hash Join' || n === 'Merge Join');

describe('generic plans of the hot path statements', () => {
  it('ran every statement of the gateway and the issue job, single and batched', () => {
    expect([...ran.keys()].sort()).toEqual(
      expect.arrayContaining([
        'talao_number_reserve',
        'talao_number_reserve_blocks',
        'talao_invoice_insert',
        'talao_invoice_insert_many',
        'talao_issue_snapshot',
        'talao_issue_snapshots',
        'talao_submission_begin',
        'talao_submission_begin_many',
        'talao_finish_2_answered_charged',
        'talao_finish_many',
        'talao_enter_contingency',
      ]),
    );
  });

  it('on the hot-path pools: index lookups only, no sequential scan, hash or merge join', async () => {
    const client = await sqlPool.connect();
    try {
      const offending: Record<string, string[]> = {};
      for (const [name, { text, values }] of ran) {
        const found = scansOrHashJoins(await genericPlan(client, text, values));
        if (found.length > 0) offending[name] = found;
      }
      expect(offending).toEqual({});
    } finally {
      client.release();
    }
  });

  it('on a plain connection the same probe finds the scans the pools price out', async () => {
    const client = new pg.Client({ connectionString: url.replace(/[?&]schema=[^&]*/, '') });
    await client.connect();
    try {
      const schema = new URL(url).searchParams.get('schema');
      if (schema) await client.query(`SET search_path = ${client.escapeIdentifier(schema)}`);
      const scanning: string[] = [];
      for (const [name, { text, values }] of ran)
        if (scansOrHashJoins(await genericPlan(client, text, values)).length > 0) scanning.push(name);
      // Small tables, generic plans: PostgreSQL prefers scanning them, which is what the pools' settings forbid.
      expect(scanning.length).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });
});
