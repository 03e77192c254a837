// The gateway and the issuer as real processes (built by Nx first, one build at a time across Jest workers; unchanged
// projects come from the cache). Each process is started with its own environment and can be killed (SIGKILL) and
// started again with the same environment.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
// The simulator's e2e helper builds under this same lock: one build at a time, so no process starts from a lib's dist
// while another build rewrites it.
const BUILD_LOCK = join(tmpdir(), 'talao-authorizer-sim-build.lock');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function buildApps(): Promise<void> {
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
    const env = { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' };
    const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build', '--projects', '@talao/gateway,@talao/issuer,@talao/authorizer-sim', '--outputStyle=static'], {
      cwd: repoRoot, env, encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`building gateway, issuer and simulator failed:\n${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

export interface AppProcess {
  readonly child: ChildProcess;
  /** What the ready line reported (the gateway's URL, the issuer's health port). */
  readonly ready: Record<string, unknown>;
  readonly lines: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `entry` and resolves once a JSON log line has msg === readyMessage. */
export async function startApp(entry: string, env: Record<string, string>, readyMessage: string): Promise<AppProcess> {
  const child = spawn(process.execPath, [join(repoRoot, entry)], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start within 30 s:\n${lines.join('\n')}`)), 30_000);
    void exited.then(() => reject(new Error(`${entry} exited before it was ready:\n${lines.join('\n')}`)));
    const reader = createInterface({ input: child.stdout! });
    reader.on('line', (line) => {
      if (lines.length < 2_000) lines.push(line);
      try {
        const event = JSON.parse(line) as Record<string, unknown>;
        if (event.msg === readyMessage) {
          clearTimeout(timer);
          // From here on the output is only drained: parsing every request log line would load the test's own CPU.
          reader.close();
          child.stdout!.resume();
          resolve(event);
        }
      } catch {
        // not a JSON line
      }
    });
  });
  return {
    child, ready, lines,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
