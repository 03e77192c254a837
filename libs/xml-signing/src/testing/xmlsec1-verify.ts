// Test support: xmlsec1 (Debian package) as a verifier independent of both the signer and xml-crypto.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `xmlsec1 --verify --insecure --id-attr:Id <namespace>:<element>`: --insecure takes the key from the embedded
 * certificate without checking its chain; --id-attr tells xmlsec which attribute is an ID (no DTD declares it).
 */
export function xmlsec1Verify(xml: string, namespace: string, elementName: string): { ok: boolean; output: string } {
  const folder = mkdtempSync(join(tmpdir(), 'xmlsec1-'));
  try {
    const file = join(folder, 'signed.xml');
    writeFileSync(file, xml);
    const result = spawnSync('xmlsec1', ['--verify', '--insecure', `--id-attr:Id`, `${namespace}:${elementName}`, file], {
      encoding: 'utf8',
    });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
