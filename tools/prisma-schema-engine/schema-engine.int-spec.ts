// The offline schema engine against real PostgreSQL: `?schema=` lands everything in that schema (search_path), and
// introspection works although it selects PostgreSQL's internal "char" columns (OID 18), which adapter-pg cannot
// decode by itself.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runPrisma } from './run-prisma-cli.js';

describe('offline schema engine (prisma CLI through tools/prisma-schema-engine)', () => {
  const schema = `bridge_${randomBytes(4).toString('hex')}`;
  let env: NodeJS.ProcessEnv;
  let client: pg.Client;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.searchParams.set('schema', schema);
    env = { ...process.env, DATABASE_URL: url.toString() };
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  afterAll(async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('applies the migrations into the ?schema= schema and reports it up to date', async () => {
    const deploy = await runPrisma(['migrate', 'deploy'], env);
    expect({ code: deploy.code, output: deploy.output }).toMatchObject({ code: 0 });
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['_prisma_migrations', 'api_keys', 'companies', 'invoices']));

    const status = await runPrisma(['migrate', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.output).toContain('Database schema is up to date');
  }, 120_000);

  it('introspects the database (db pull --print)', async () => {
    const pull = await runPrisma(['db', 'pull', '--print'], env);
    expect(pull.code).toBe(0);
    expect(pull.output).toMatch(/model ApiKey \{[^}]*@@map\("api_keys"\)/s);
  }, 120_000);
});
