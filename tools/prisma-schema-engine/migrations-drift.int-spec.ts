// Schema and migrations must not drift: every change to prisma/schema.prisma ships with its migration
// (`npx prisma migrate dev --name <change>`). Runs the standard Prisma command through the offline schema engine.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A fresh shadow database is created and dropped for each diff; both diffs take a few seconds on two cores.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const prismaCli = join(repoRoot, 'node_modules/prisma/build/index.js');

function migrateDiff(toSchema: string): Promise<{ code: number | null; output: string }> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm test` (the shadow database needs a server)');
  const args = ['migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema', toSchema, '--exit-code'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, ...args], { cwd: repoRoot, env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('prisma/migrations vs prisma/schema.prisma', () => {
  it('have no drift (prisma migrate diff --exit-code answers 0)', async () => {
    const { code, output } = await migrateDiff('prisma/schema.prisma');
    if (code !== 0) {
      throw new Error(`schema.prisma and prisma/migrations differ; create the migration with \`npx prisma migrate dev --name <change>\`:\n${output}`);
    }
    expect(output).toContain('No difference detected');
  }, 120_000);

  it('the check fails (exit code 2) when the schema has a change no migration carries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'talao-drift-'));
    try {
      const schema = await readFile(join(repoRoot, 'prisma/schema.prisma'), 'utf8');
      const drifted = join(dir, 'schema.prisma');
      await writeFile(drifted, `${schema}\nmodel DriftProbe {\n  id Int @id\n\n  @@map("drift_probe")\n}\n`);
      const { code, output } = await migrateDiff(drifted);
      expect({ code, mentionsTable: output.includes('drift_probe') }).toEqual({ code: 2, mentionsTable: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
