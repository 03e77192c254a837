// Runs the project's Prisma CLI (and so, through prisma.config.ts, the offline schema engine) for tests.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const prismaCli = join(repoRoot, 'node_modules/prisma/build/index.js');

export function runPrisma(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; output: string }> {
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm test` (tools/test/run-tests.mjs)');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, ...args], { cwd: repoRoot, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
