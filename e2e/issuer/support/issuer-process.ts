// apps/issuer as a real process (built by Nx first; unchanged projects come from the cache).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { buildProjects, jsonLine, repoRoot, spawnApp, withBuildLock } from '../../support/app-process.js';

const ENTRY = 'apps/issuer/dist/main.js';

/** Under the build lock shared with the other e2e folders: no build rewrites a dist another worker is starting from. */
export function buildIssuer(): Promise<void> {
  return withBuildLock(() => buildProjects(['@talao/issuer']));
}

export interface IssuerProcess {
  child: ChildProcess;
  healthUrl: string;
  /** Every stdout line (JSON logs) so far. */
  lines: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function runIssuerOnce(env: Record<string, string>): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [join(repoRoot, ENTRY)], { cwd: repoRoot, env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stderr: result.stderr };
}

export async function startIssuer(env: Record<string, string>): Promise<IssuerProcess> {
  const app = spawnApp(ENTRY, env);
  const port = await app.waitForLine((line) => {
    const event = jsonLine<{ msg: string; healthPort: number }>(line);
    return event?.msg === 'issuer ready' && event.healthPort ? event.healthPort : undefined;
  });
  return { child: app.child, healthUrl: `http://127.0.0.1:${port}`, lines: app.lines, stop: (signal) => app.stop(signal) };
}
