// A migrated database of its own for one benchmark run, dropped afterwards (the same way `npm test` isolates runs).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export async function withScratchDatabase<T>(namePrefix: string, work: (databaseUrl: string) => Promise<T>): Promise<T> {
  const admin = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const name = `${namePrefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await query(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    // NODE_OPTIONS cleared: the bench's TypeScript hooks must not load into the Prisma CLI.
    const migrate = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'migrate', 'deploy'], {
      cwd: repoRoot,
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: url.toString() },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);
    return await work(url.toString());
  } finally {
    await query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}
