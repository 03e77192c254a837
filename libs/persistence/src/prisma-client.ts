// The one way the platform opens PostgreSQL through Prisma 7: the generated client on @prisma/adapter-pg.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export interface PrismaClientOptions {
  /** Upper bound of the pg pool behind this client (pg's default is 10). */
  poolMax?: number;
}

/**
 * `?schema=` (Prisma's URL convention) is honoured: queries are qualified with that schema, as `prisma migrate`
 * created the tables there.
 */
export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): PrismaClient {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema'); // not a libpq/pg parameter
  const adapter = new PrismaPg(
    { connectionString: url.toString(), ...(options.poolMax ? { max: options.poolMax } : {}) },
    schema ? { schema } : undefined,
  );
  return new PrismaClient({ adapter });
}
