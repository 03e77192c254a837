// The hottest statements of the issuance path (number reservation, invoice insert, invoice read) are plain SQL run
// through a SqlRunner: on a pg pool of their own as named (prepared) statements — parsed and planned once per
// connection, and none of Prisma's per-query machinery, which the CPU profiles showed as the largest single cost —
// or, without a pool, through the Prisma client ($queryRawUnsafe), so every caller keeps working unchanged.
import pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { DbClient } from './issuance-records.js';

export interface SqlRunner {
  /** One parameterised statement ($1, $2, …); `name` identifies it as a prepared statement on a pg connection. */
  query<T>(name: string, text: string, values: unknown[]): Promise<T[]>;
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
 * A pg pool on the same database as createPrismaClient: `?schema=` (Prisma's convention) becomes the connection's
 * search_path, so unqualified table names resolve as they do for the Prisma client.
 * Its statements are few, fixed and keyed by primary or unique keys, so they run on generic plans: PostgreSQL would
 * otherwise keep re-planning a statement whose generic plan it estimates dearer than a custom one (the issue job's
 * snapshot read was planned on every execution, a fifth of its time).
 */
export function createSqlPool(databaseUrl: string, max = 10): pg.Pool {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const options = ['-c plan_cache_mode=force_generic_plan', ...(schema ? [`-c search_path="${schema.replaceAll('"', '""')}"`] : [])];
  return new pg.Pool({ connectionString: url.toString(), max, options: options.join(' ') });
}
