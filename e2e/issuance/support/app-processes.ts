// The gateway and the issuer as real processes (built by Nx first, one build at a time across Jest workers; unchanged
// projects come from the cache). Each process is started with its own environment and can be killed (SIGKILL) and
// started again with the same environment.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
// The simulator's e2e helper builds under this same lock: one build at a time, so no process starts from a lib's dist
// while another build rewrites it.
const BUILD_LOCK = join(tmpdir(), 'talao-authorizer-sim-build.lock');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds gateway, issuer and simulator, then runs `work` (starting the processes) while still holding the lock: a
 * process loads every module at start, so no other build may rewrite a lib's dist until it is up. `build: false`
 * only takes the lock (restarting a process that was built already).
 */
export async function withBuiltApps<T>(work: () => Promise<T>, options: { build: boolean } = { build: true }): Promise<T> {
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      const age = Date.now() - (statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(BUILD_LOCK, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    if (!options.build) return await work();
    const env = { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' };
    const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build', '--projects', '@talao/gateway,@talao/issuer,@talao/authorizer-sim', '--outputStyle=static'], {
      cwd: repoRoot, env, encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`building gateway, issuer and simulator failed:\n${result.stdout}\n${result.stderr}`);
    return await work();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

export interface AppProcess {
  readonly child: ChildProcess;
  /** stderr and the first stdout lines (JSON logs), for the error message when it fails to start. */
  readonly output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A TCP port free right now on the loopback interface (the app binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `entry` and resolves once `readyUrl` answers 200 (readiness: PostgreSQL and Redis reachable), whatever the
 * log level: the benchmark runs the apps at LOG_LEVEL=warn, where no "ready" log line would appear.
 */
export async function startApp(entry: string, env: Record<string, string>, readyUrl: string): Promise<AppProcess> {
  const child = spawn(process.execPath, [join(repoRoot, entry)], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', (code) => {
    exitCode = code;
    resolve();
  }));
  child.stderr!.on('data', (chunk: Buffer) => output.length < 200 && output.push(chunk.toString('utf8')));
  child.stdout!.on('data', (chunk: Buffer) => output.length < 200 && output.push(chunk.toString('utf8')));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`${entry} exited (${exitCode}) before it was ready:\n${output.join('')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} was not ready within 30 s:\n${output.join('')}`);
    }
    const ok = await fetch(readyUrl).then((r) => r.ok, () => false);
    if (ok) break;
    await sleep(100);
  }
  return {
    child, output,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
