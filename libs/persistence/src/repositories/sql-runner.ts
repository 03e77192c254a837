// The hottest statements of the issuance path (number reservation, invoice insert, invoice read) are plain SQL run
// through a SqlRunner: on a pg pool of their own as named (prepared) statements — parsed and planned once per
// connection, and none of Prisma's per-query machinery, which the CPU profiles showed as the largest single cost —
// or, without a pool, through the Prisma client ($queryRawUnsafe), so every caller keeps working unchanged.
import pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { DbClient } from './issuance-records.js';
import { DEFAULT_BATCHER_OPTIONS, StatementBatcher, type StatementBatcherOptions } from './statement-batcher.js';

export interface SqlRunner {
  /** One parameterised statement ($1, $2, …); `name` identifies it as a prepared statement on a pg connection. */
  query<T>(name: string, text: string, values: unknown[]): Promise<T[]>;
  /**
   * Only on a coalescing runner (coalescingSqlRunner): the batcher of the multi-row statement `name`, made from
   * `runBatch` on first use. Statements that have a multi-row form ask for it; without it they run one call each.
   */
  batcher?<I, O>(name: string, runBatch: (inputs: I[]) => Promise<O[]>): StatementBatcher<I, O>;
}

export function prismaSqlRunner(client: DbClient | PrismaClient): SqlRunner {
  return { query: <T>(_name: string, text: string, values: unknown[]) => client.$queryRawUnsafe<T[]>(text, ...values) };
}

export function pgPoolSqlRunner(pool: pg.Pool): SqlRunner {
  return {
    query: async <T>(name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows as T[],
  };
}

/**
 * `sql` whose statements with a multi-row form (the issue job's snapshot read, submission begin and final statement)
 * are coalesced across concurrent callers, one StatementBatcher per statement shared by every repository on this
 * runner. Only over a pool's autocommit statements: a batch is a statement of its own, so it cannot join a caller's
 * transaction (the Prisma runner is never wrapped).
 */
export function coalescingSqlRunner(sql: SqlRunner, options: StatementBatcherOptions = DEFAULT_BATCHER_OPTIONS): SqlRunner {
  const batchers = new Map<string, StatementBatcher<unknown, unknown>>();
  return {
    query: (name, text, values) => sql.query(name, text, values),
    batcher: <I, O>(name: string, runBatch: (inputs: I[]) => Promise<O[]>) => {
      let batcher = batchers.get(name) as StatementBatcher<I, O> | undefined;
      if (!batcher) {
        batcher = new StatementBatcher(runBatch, options);
        batchers.set(name, batcher as StatementBatcher<unknown, unknown>);
      }
      return batcher;
    },
  };
}

export interface SqlPoolOptions {
  /**
   * `synchronous_commit = off` on the pool's connections: a commit returns before its WAL is flushed. Only for writes
   * that need no durability of their own — see NUMBERING_POOL_OPTIONS.
   */
  asynchronousCommit?: boolean;
}

/**
 * The number reservation's pool: its commits are asynchronous. A reserved number matters only once an invoice row
 * carries it, and that insert's synchronous commit flushes the WAL up to its own commit record — the reservation's
 * included, as it committed earlier. A crash can only lose a reservation no durable invoice uses, so the number is
 * handed out again: no gap. Meanwhile the series' row lock is no longer held through a WAL flush, which serialised
 * every issuance of a series behind the disk.
 */
export const NUMBERING_POOL_OPTIONS: SqlPoolOptions = { asynchronousCommit: true };

/**
 * A pg pool on the same database as createPrismaClient: `?schema=` (Prisma's convention) becomes the connection's
 * search_path, so unqualified table names resolve as they do for the Prisma client.
 * Its statements are few, fixed and keyed by primary or unique keys, so they run on generic plans: PostgreSQL would
 * otherwise keep re-planning a statement whose generic plan it estimates dearer than a custom one (the issue job's
 * snapshot read was planned on every execution, a fifth of its time).
 * A generic plan is made once and kept until the table's statistics change, often while a table is still small: then
 * a batched statement (rows of unnest joined to invoices or submissions by key) plans a hash join over a sequential
 * scan, and keeps it as the table grows — every batch then reads the whole table (seen in a benchmark: 775,000 rows
 * read from a 3,000-row submissions table in 20 s). Every statement of these pools finds its rows by primary or unique
 * key, so sequential scans, hash and merge joins are priced out: the plan is an index lookup at any table size.
 */
export function createSqlPool(databaseUrl: string, max = 10, poolOptions: SqlPoolOptions = {}): pg.Pool {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const options = [
    '-c plan_cache_mode=force_generic_plan',
    '-c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off',
    ...(poolOptions.asynchronousCommit ? ['-c synchronous_commit=off'] : []),
    ...(schema ? [`-c search_path="${schema.replaceAll('"', '""')}"`] : []),
  ];
  // Idle connections are kept a minute (pg's default is 10 s): a closed one takes its prepared statements and plans
  // with it, and a lull between bursts should not cost the next burst a reconnect and a re-prepare per statement.
  return new pg.Pool({ connectionString: url.toString(), max, idleTimeoutMillis: 60_000, options: options.join(' ') });
}
