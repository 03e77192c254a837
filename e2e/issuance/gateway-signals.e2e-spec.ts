// The gateway process and signals: a diagnostic signal leaves it serving, SIGTERM stops it. Operators take heap
// snapshots of a running replica with `node --heapsnapshot-signal=SIGUSR2`; the gateway used to shut down on it.
import { jest } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { type Platform, startPlatform } from './support/platform.js';

jest.setTimeout(120_000);

const diagnostics = mkdtempSync(join(tmpdir(), 'talao-gateway-diagnostics-'));
let p: Platform;

beforeAll(async () => {
  p = await startPlatform('signals', { gatewayEnv: { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${diagnostics}` } });
});

afterAll(async () => {
  await p?.stop();
  rmSync(diagnostics, { recursive: true, force: true });
});

const snapshots = () => readdirSync(diagnostics).filter((name) => name.endsWith('.heapsnapshot'));

it('writes a heap snapshot on SIGUSR2 and goes on issuing; stops on SIGTERM', async () => {
  const company = await p.createCompany();
  const gateway = p.gateway();
  process.kill(gateway.child.pid!, 'SIGUSR2');
  for (let waited = 0; snapshots().length === 0 && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(snapshots()).toHaveLength(1);
  expect(gateway.child.exitCode).toBeNull();
  const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
  expect(created.status).toBe(201);

  const exited = new Promise((resolve) => gateway.child.once('exit', (code, signal) => resolve(signal ?? code)));
  process.kill(gateway.child.pid!, 'SIGTERM');
  expect(await exited).toBe('SIGTERM'); // Nest closes the app, then re-raises the signal
  expect((await fetch(`${p.gatewayUrl}/readyz`).catch(() => undefined))?.status).toBeUndefined();
});
