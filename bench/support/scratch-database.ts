// A migrated database of its own for one benchmark run, dropped afterwards (the same way `npm test` isolates runs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createDatabase, dropDatabase, uniqueRunId } from '../../tools/test/scratch-database.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export async function withScratchDatabase<T>(namePrefix: string, work: (databaseUrl: string) => Promise<T>): Promise<T> {
  const admin = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const name = `${namePrefix}_${uniqueRunId()}`;
  const url = await createDatabase(admin, name);
  try {
    // NODE_OPTIONS cleared: the bench's TypeScript hooks must not load into the Prisma CLI.
    const migrate = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'migrate', 'deploy'], {
      cwd: repoRoot,
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: url },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);
    return await work(url);
  } finally {
    await dropDatabase(admin, name);
  }
}
