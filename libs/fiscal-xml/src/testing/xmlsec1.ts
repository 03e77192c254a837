// Test support: `xmlsec1 --verify --insecure --id-attr:Id <ns>:<element>`, a verifier independent of our signer and
// of xml-crypto. --insecure takes the key from the embedded certificate (no chain check).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Checked once, when a spec imports this: without the binary every verification would fail, and a property test
// would then shrink its failure for many minutes instead of saying what is missing.
const probe = spawnSync('xmlsec1', ['--version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  throw new Error(
    `xmlsec1 is not installed or does not run (${probe.error?.message ?? probe.stderr}): install the Debian package xmlsec1 (.ci/run does)`,
  );
}

export function xmlsec1Verifies(xml: string, namespace: string, elementName: string): { ok: boolean; output: string } {
  const folder = mkdtempSync(join(tmpdir(), 'fiscal-xml-xmlsec1-'));
  try {
    const file = join(folder, 'signed.xml');
    writeFileSync(file, xml);
    const run = spawnSync('xmlsec1', ['--verify', '--insecure', '--id-attr:Id', `${namespace}:${elementName}`, file], { encoding: 'utf8' });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
