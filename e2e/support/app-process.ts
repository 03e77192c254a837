// The built apps as real child processes, for every e2e folder: build with Nx (unchanged projects come from the
// cache) under one lock shared by all Jest workers, spawn `dist/main.js` with an environment, wait until it says it
// is ready (a log line or a URL answering 200), and stop it (SIGTERM, then SIGKILL if it does not exit in time).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const BUILD_LOCK = join(tmpdir(), 'talao-authorizer-sim-build.lock');
/** A lock older than this belongs to a worker that died holding it. */
const STALE_LOCK_MS = 120_000;
const STOP_GRACE_MS = 15_000;
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
  const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build', '--projects', projects.join(','), '--outputStyle=static'], {
    cwd: repoRoot, env, encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`building ${projects.join(', ')} failed:\n${result.stdout}\n${result.stderr}`);
}

export interface SpawnedApp {
  readonly child: ChildProcess;
  /** Every stdout line so far (JSON logs). */
  readonly lines: string[];
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
  /** Resolves with the first `match` result for a stdout line, or rejects on exit or after `timeoutMs`. */
  waitForLine<T>(match: (line: string) => T | undefined, timeoutMs?: number): Promise<T>;
  /** Resolves once `url` answers 2xx; rejects (and kills the process) on exit or after `timeoutMs`. */
  waitForUrl(url: string, timeoutMs?: number): Promise<void>;
  /** Sends `signal` (SIGTERM by default), then SIGKILL if the process is still there after a grace period. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `node <entry>` (relative to the repository root) with exactly `env`. stderr is inherited by default (the
 * app's errors show in the test output) or collected into `output` with `stderr: 'pipe'`.
 */
export function spawnApp(entry: string, env: NodeJS.ProcessEnv, options: { stderr?: 'inherit' | 'pipe' } = {}): SpawnedApp & { output: string[] } {
  const child = spawn(process.execPath, [join(repoRoot, entry)], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', options.stderr ?? 'inherit'] });
  const lines: string[] = [];
  const output: string[] = [];
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    exitCode = code;
    resolve(code);
  }));
  child.stderr?.on('data', (chunk: Buffer) => output.length < 200 && output.push(chunk.toString('utf8')));
  const stdout = createInterface({ input: child.stdout! });
  stdout.on('line', (line) => {
    lines.push(line);
    if (output.length < 200) output.push(`${line}\n`);
  });
  const name = entry.split('/').slice(0, 2).join('/');
  return {
    child, lines, output, exited,
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
          stdout.off('line', check);
          resolve(found);
        };
        lines.forEach(check);
        stdout.on('line', check);
      });
    },
    async waitForUrl(url, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exitCode !== undefined) throw new Error(`${entry} exited (${exitCode}) before it was ready:\n${output.join('')}`);
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`${entry} was not ready within ${timeoutMs / 1_000} s:\n${output.join('')}`);
        }
        if (await fetch(url).then((r) => r.ok, () => false)) return;
        await sleep(100);
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
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
