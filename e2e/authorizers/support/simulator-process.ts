// Starts apps/authorizer-sim as a real child process (built by Nx first; unchanged projects come from the cache),
// on free ports with a fresh data dir, and talks to its control API.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningSimulator {
  baseUrl: string;
  controlUrl: string;
  caCertificatePem: string;
  control(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  stop(): Promise<void>;
}

const BUILD_LOCK = join(tmpdir(), 'talao-authorizer-sim-build.lock');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Jest runs the e2e files in parallel workers: one build at a time (a directory as the lock, created atomically),
 * so no worker starts the simulator while another rewrites its dist. A lock older than two minutes is stale.
 */
async function withBuildLock(build: () => void): Promise<void> {
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      const age = Date.now() - (statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(BUILD_LOCK, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    build();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

export function buildSimulator(): void {
  const env = { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' };
  const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build', '--projects', '@talao/authorizer-sim', '--outputStyle=static'], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`building the simulator failed:\n${result.stdout}\n${result.stderr}`);
}

export async function startSimulator(): Promise<RunningSimulator> {
  await withBuildLock(buildSimulator);
  const dataDir = mkdtempSync(join(tmpdir(), 'talao-sim-'));
  const token = 'test-control-token';
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, 'apps/authorizer-sim/dist/main.js')], {
    cwd: repoRoot,
    env: { ...process.env, SIM_PORT: '0', SIM_CONTROL_PORT: '0', SIM_DATA_DIR: dataDir, SIM_CONTROL_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ port: number; controlPort: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the simulator did not start within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const event = JSON.parse(line) as { event?: string; port: number; controlPort: number };
        if (event.event === 'authorizer-sim-ready') {
          clearTimeout(timer);
          resolve(event);
        }
      } catch {
        // not a JSON line
      }
    });
  });
  const controlUrl = `http://127.0.0.1:${ready.controlPort}`;
  return {
    baseUrl: `https://127.0.0.1:${ready.port}`,
    controlUrl,
    caCertificatePem: readFileSync(join(dataDir, 'ca-certificate.pem'), 'utf8'),
    async control(method, path, body) {
      const response = await fetch(`${controlUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
