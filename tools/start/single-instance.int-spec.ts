import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { claimCheckout } from './single-instance.mjs';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'talao-claim-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

it('claims the checkout, refuses a second claim while the holder lives, and releases the file', () => {
  const release = claimCheckout(dataDir);
  const file = path.join(dataDir, 'launcher.pid');
  expect(existsSync(file)).toBe(true);
  release();
  expect(existsSync(file)).toBe(false);
});

it('refuses while another live launcher holds the checkout', async () => {
  // A process whose command line names start.mjs, as a real launcher's does.
  const script = path.join(dataDir, 'start.mjs');
  writeFileSync(script, 'setTimeout(() => {}, 30000);');
  const other = spawn(process.execPath, [script], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(path.join(dataDir, 'launcher.pid'), `${other.pid}\n`);
    expect(() => claimCheckout(dataDir)).toThrow(`npm start is already running in this checkout (pid ${other.pid})`);
  } finally {
    other.kill();
  }
});

it('takes over a file left by a launcher that died', () => {
  writeFileSync(path.join(dataDir, 'launcher.pid'), '999999999\n');
  const release = claimCheckout(dataDir);
  release();
});
