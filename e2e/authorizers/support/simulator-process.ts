// Starts apps/authorizer-sim as a real child process (built by Nx first; unchanged projects come from the cache),
// on free ports with a fresh data dir, and talks to its control API.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProjects, jsonLine, spawnApp, withBuildLock } from '../../support/app-process.js';

export interface RunningSimulator {
  baseUrl: string;
  controlUrl: string;
  caCertificatePem: string;
  control(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/** The control API of a simulator at `controlUrl` that expects `token`: a JSON body in, the status and JSON out. */
export function simulatorControl(controlUrl: string, token: string): RunningSimulator['control'] {
  return async (method, path, body) => {
    const response = await fetch(`${controlUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}

export async function startSimulator(): Promise<RunningSimulator> {
  await withBuildLock(() => buildProjects(['@talao/authorizer-sim']));
  const dataDir = mkdtempSync(join(tmpdir(), 'talao-sim-'));
  const token = 'test-control-token';
  const app = spawnApp('apps/authorizer-sim/dist/main.js', {
    ...process.env,
    SIM_PORT: '0',
    SIM_CONTROL_PORT: '0',
    SIM_DATA_DIR: dataDir,
    SIM_CONTROL_TOKEN: token,
  });
  const ready = await app.waitForLine((line) => {
    const event = jsonLine<{ event: string; port: number; controlPort: number }>(line);
    return event?.event === 'authorizer-sim-ready' ? { port: event.port!, controlPort: event.controlPort! } : undefined;
  });
  const controlUrl = `http://127.0.0.1:${ready.controlPort}`;
  return {
    baseUrl: `https://127.0.0.1:${ready.port}`,
    controlUrl,
    caCertificatePem: readFileSync(join(dataDir, 'ca-certificate.pem'), 'utf8'),
    control: simulatorControl(controlUrl, token),
    async stop() {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
