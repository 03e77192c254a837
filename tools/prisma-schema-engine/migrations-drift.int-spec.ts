// Schema and migrations must not drift: every change to prisma/schema.prisma ships with its migration
// (`npx prisma migrate dev --name <change>`). Runs the standard Prisma command through the offline schema engine.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runPrisma } from './run-prisma-cli.js';

// A fresh shadow database is created and dropped for each diff; both diffs take a few seconds on two cores.
const migrateDiff = (toSchema: string) =>
  runPrisma(['migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema', toSchema, '--exit-code']);

describe('prisma/migrations vs prisma/schema.prisma', () => {
  it('have no drift (prisma migrate diff --exit-code answers 0)', async () => {
    const { code, output } = await migrateDiff('prisma/schema.prisma');
    if (code !== 0) {
      throw new Error(
        `schema.prisma and prisma/migrations differ; create the migration with \`npx prisma migrate dev --name <change>\`:\n${output}`,
      );
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
