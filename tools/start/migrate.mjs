// Applies the project's migrations with the standard Prisma command (prisma.config.ts points Prisma at the project's
// schema-engine bridge, so this works offline).
import { spawn } from 'node:child_process';
import path from 'node:path';

export function applyMigrations({ root, databaseUrl, log }) {
  const prisma = path.join(root, 'node_modules', '.bin', 'prisma');
  return new Promise((resolve, reject) => {
    const child = spawn(prisma, ['migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = output
        .split('\n')
        .map((l) => l.trimEnd())
        .filter((l) => l.length > 0);
      if (code === 0) {
        // Prisma lists applied migrations as "└─ <name>/" lines and says "No pending migrations" otherwise.
        const applied = lines.map((l) => /└─\s*(\d{14}_[^/\s]+)\/?$/.exec(l.trim())?.[1]).filter(Boolean);
        const found = lines.find((l) => /migrations? found/.test(l))?.trim();
        resolve(applied.length > 0 ? `migrations applied: ${applied.join(', ')}` : `no pending migrations${found ? ` (${found})` : ''}`);
      } else {
        log.error(lines.join('\n'));
        reject(new Error(`prisma migrate deploy failed (exit code ${code}); output above`));
      }
    });
  });
}
