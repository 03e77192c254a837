#!/usr/bin/env node
// `npm test`: every tier against real PostgreSQL and Redis.
// Each run gets its own database (talao_test_<run id>) and Redis key prefix (talao-test:<run id>:), so runs on one
// machine never see each other's data. The database is migrated with the project's own migrations, exactly as
// production would be, and dropped at the end (KEEP_TEST_DB=1 keeps it for a post-mortem).
//   node tools/test/run-tests.mjs [--unit] [jest args…]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const jestArgs = args.filter((a) => a !== '--unit');
if (unitOnly) jestArgs.unshift('--selectProjects', 'unit');

const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() };

const adminUrl = new URL(process.env.TEST_DATABASE_ADMIN_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const dbName = `talao_test_${runId}`;
let created = false;

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function main() {
  if (!unitOnly) {
    await adminQuery(`CREATE DATABASE "${dbName}"`);
    created = true;
    const testUrl = new URL(adminUrl);
    testUrl.pathname = `/${dbName}`;
    env.DATABASE_URL = testUrl.toString();
    env.REDIS_URL ??= 'redis://127.0.0.1:6379';
    env.REDIS_PREFIX = `talao-test:${runId}:`;
    env.TALAO_TEST_RUN_ID = runId;
    const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], { env, stdio: 'inherit' });
    if (migrate.status !== 0) throw new Error('prisma migrate deploy failed');
  }
  const jest = spawnSync('npx', ['jest', ...jestArgs], { env, stdio: 'inherit' });
  return jest.status ?? 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (created && !process.env.KEEP_TEST_DB) {
    await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch((e) => console.error(`could not drop ${dbName}: ${e.message}`));
  }
}
process.exit(code);
