// The built apps as real child processes, for every e2e folder: build with Nx (unchanged projects come from the
// cache) under one lock shared by all Jest workers, start `dist/main.js` with an environment through the launcher of
// `npm start`, wait until it says it is ready (a log line), and stop it (SIGTERM, then SIGKILL if it does not exit).
import { type ChildProcess, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPS } from '../../tools/start/app-table.mjs';
import { launchApp } from '../../tools/start/apps.mjs';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

// One lock per checkout: builds rewrite this checkout's dist folders only, so two clones (or worktrees) need not wait
// for each other.
const BUILD_LOCK = join(tmpdir(), `talao-build-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 12)}.lock`);
/** A lock older than this belongs to a worker that died holding it. */
const STALE_LOCK_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` holding the build lock (a directory, created atomically). Jest runs e2e files in parallel workers: a
 * process loads every module at start, so no worker may start one while another build rewrites a lib's dist.
 */
export async function withBuildLock<T>(work: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      const age = Date.now() - (statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(BUILD_LOCK, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** Builds the projects (e.g. '@talao/issuer'); call it inside withBuildLock. */
export function buildProjects(projects: readonly string[]): void {
  const env = { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' };
  const result = spawnSync(
    join(repoRoot, 'node_modules', '.bin', 'nx'),
    ['run-many', '-t', 'build', '--projects', projects.join(','), '--outputStyle=static'],
    {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`building ${projects.join(', ')} failed:\n${result.stdout}\n${result.stderr}`);
}

export interface SpawnedApp {
  readonly child: ChildProcess;
  /** Every stdout line so far (JSON logs). */
  readonly lines: string[];
  /** stderr (with `stderr: 'pipe'`) and the first stdout lines, for the error message when it fails to start. */
  readonly output: string[];
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
  /** Resolves with the first `match` result for a stdout line, or rejects on exit or after `timeoutMs`. */
  waitForLine<T>(match: (line: string) => T | undefined, timeoutMs?: number): Promise<T>;
  /** Sends `signal` (SIGTERM by default), then SIGKILL if the process is still there after a grace period. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `node <entry>` (relative to the repository root) with exactly `env`, through the launcher of `npm start`
 * (tools/start/apps.mjs). stderr goes to the test output by default, or into `output` with `stderr: 'pipe'`.
 */
export function spawnApp(entry: string, env: NodeJS.ProcessEnv, options: { stderr?: 'inherit' | 'pipe' } = {}): SpawnedApp {
  const lines: string[] = [];
  const output: string[] = [];
  const listeners = new Set<(line: string) => void>();
  const launched = launchApp({
    root: repoRoot,
    entry,
    // As `npm start` and the images start it (the tracing entry first, when the table says so).
    nodeArgs: APPS.find((app) => app.entry === entry)?.nodeArgs ?? [],
    env: env as Record<string, string>,
    inheritEnv: false,
    onLine: (line, stream) => {
      if (stream === 'stderr') {
        if (options.stderr !== 'pipe') process.stderr.write(`${line}\n`);
        else if (output.length < 200) output.push(`${line}\n`);
        return;
      }
      lines.push(line);
      if (output.length < 200) output.push(`${line}\n`);
      for (const listener of listeners) listener(line);
    },
  });
  const exited = launched.exited.then(({ code }) => code);
  const name = entry.split('/').slice(0, 2).join('/');
  return {
    child: launched.child,
    lines,
    output,
    exited,
    waitForLine(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs / 1_000} s`)), timeoutMs);
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited with ${code}:\n${output.join('')}`));
        });
        const check = (line: string) => {
          const found = match(line);
          if (found === undefined) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(found);
        };
        lines.forEach(check);
        listeners.add(check);
      });
    },
    stop: async (signal = 'SIGTERM') => (await launched.stop(signal)).code,
  };
}

/** A JSON log line's fields, or undefined for any other line. */
export function jsonLine<T>(line: string): Partial<T> | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return parsed && typeof parsed === 'object' ? (parsed as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}
