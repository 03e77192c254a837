// apps/issuer as a real process (built by Nx first; unchanged projects come from the cache).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export function buildIssuer(): void {
  const env = { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' };
  const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build', '--projects', '@talao/issuer', '--outputStyle=static'], {
    cwd: repoRoot, env, encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`building the issuer failed:\n${result.stdout}\n${result.stderr}`);
}

export interface IssuerProcess {
  child: ChildProcess;
  healthUrl: string;
  /** Every stdout line (JSON logs) so far. */
  lines: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function runIssuerOnce(env: Record<string, string>): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [join(repoRoot, 'apps/issuer/dist/main.js')], { cwd: repoRoot, env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stderr: result.stderr };
}

export async function startIssuer(env: Record<string, string>): Promise<IssuerProcess> {
  const child = spawn(process.execPath, [join(repoRoot, 'apps/issuer/dist/main.js')], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the issuer did not start within 20 s')), 20_000);
    void exited.then((code) => reject(new Error(`the issuer exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      try {
        const event = JSON.parse(line) as { msg?: string; healthPort?: number };
        if (event.msg === 'issuer ready' && event.healthPort) {
          clearTimeout(timer);
          resolve(event.healthPort);
        }
      } catch {
        // not a JSON line
      }
    });
  });
  return {
    child,
    healthUrl: `http://127.0.0.1:${port}`,
    lines,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
