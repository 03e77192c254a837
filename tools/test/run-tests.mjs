#!/usr/bin/env node
// `npm test`: every tier against real PostgreSQL and Redis.
// Each run gets its own database (talao_test_<run id>) and Redis key prefix (talao-test:<run id>:), so runs on one
// machine never see each other's data. The database is migrated with the project's own migrations, exactly as
// production would be, and dropped at the end (KEEP_TEST_DB=1 keeps it for a post-mortem); the run's Redis keys
// (REDIS_PREFIX*) are deleted at the end too.
//   node tools/test/run-tests.mjs [--unit] [jest args…]
// `--unit` (or `--selectProjects unit` alone) needs no database.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createDatabase, dropDatabase, uniqueRunId } from './scratch-database.mjs';

const args = process.argv.slice(2);
const projectNames = new Set(['unit', 'integration', 'e2e']);
const selectedProjects = [];
for (const name of args.slice(args.indexOf('--selectProjects') + 1)) {
  if (!args.includes('--selectProjects') || !projectNames.has(name)) break;
  selectedProjects.push(name);
}
const unitOnly = args.includes('--unit') || (selectedProjects.length > 0 && selectedProjects.every((p) => p === 'unit'));
const jestArgs = args.filter((a) => a !== '--unit');
if (unitOnly) jestArgs.unshift('--selectProjects', 'unit');

// The CLIs run with this Node directly (not through npx): faster, and no npm warnings in the output.
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const prismaCli = `${repoRoot}node_modules/prisma/build/index.js`;
const jestCli = `${repoRoot}node_modules/jest/bin/jest.js`;
const runId = uniqueRunId();
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() };
// infRespTec has no default (no app may plan a document naming a made-up company): tests that build an app from the
// environment, such as the in-process gateway, get the test run's own software house.
env.TECHNICAL_RESPONSIBLE_CNPJ ??= '11222333000181';
env.TECHNICAL_RESPONSIBLE_CONTACT ??= 'Equipe Talao';
env.TECHNICAL_RESPONSIBLE_EMAIL ??= 'suporte@talao.example';
env.TECHNICAL_RESPONSIBLE_PHONE ??= '1133334444';

const adminUrl = new URL(
  process.env.TEST_DATABASE_ADMIN_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
);
const dbName = `talao_test_${runId}`;
let created = false;

async function main() {
  if (!unitOnly) {
    env.DATABASE_URL = await createDatabase(adminUrl, dbName);
    created = true;
    env.REDIS_URL ??= 'redis://127.0.0.1:6379';
    env.REDIS_PREFIX = `talao-test:${runId}:`;
    env.TALAO_TEST_RUN_ID = runId;
    const started = Date.now();
    const migrate = spawnSync(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      env,
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (migrate.status !== 0) {
      process.stdout.write(migrate.stdout ?? '');
      throw new Error('prisma migrate deploy failed');
    }
    console.log(`test database ${dbName} migrated in ${Date.now() - started} ms`);
  }
  // On two cores Jest runs the files in band, in its own process, so a single socket a test leaves
  // behind (an ioredis client retrying an unreachable server, say) would keep the run alive after the last result and
  // CI would wait for ever. --forceExit ends the run once results are in; open handles remain bugs to fix in the tests.
  const jest = spawnSync(process.execPath, [jestCli, '--forceExit', ...jestArgs], { env, cwd: repoRoot, stdio: 'inherit' });
  return jest.status ?? 1;
}

/** Deletes every key of this run (SCAN + UNLINK, never KEYS: other runs may share the server). */
async function cleanRedis(url, prefix) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => {}); // reported below; an unreachable Redis must not crash the cleanup
  try {
    await redis.connect();
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
    if (deleted > 0) console.log(`deleted ${deleted} Redis keys under ${prefix}`);
  } finally {
    redis.disconnect();
  }
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (created && !process.env.KEEP_TEST_DB) {
    await dropDatabase(adminUrl, dbName).catch((e) => console.error(`could not drop ${dbName}: ${e.message}`));
  }
  if (env.REDIS_PREFIX && !process.env.KEEP_TEST_DB) {
    await cleanRedis(env.REDIS_URL, env.REDIS_PREFIX).catch((e) =>
      console.error(`could not clean Redis keys ${env.REDIS_PREFIX}*: ${e.message}`),
    );
  }
}
process.exit(code);
