// The local test certificate authority (ICP-Brasil shape, from @talao/icp-test-ca), created once and kept in
// .data/icp-test-ca/ so every run — and the authorizer simulator, which must trust the demo company's certificate —
// uses the same CA. Not for production: it signs whatever it is asked to.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export function testCaPaths(dataDir) {
  const dir = path.join(dataDir, 'icp-test-ca');
  return { dir, certificate: path.join(dir, 'ca-certificate.pem'), privateKey: path.join(dir, 'ca-private-key.pem') };
}

/** True when the library is built, i.e. importable by package name from plain JavaScript. */
export async function isTestCaLibraryAvailable() {
  try {
    await import('@talao/icp-test-ca');
    return true;
  } catch {
    return false;
  }
}

/** Loads the stored CA, or creates and stores a new one. */
export async function loadOrCreateTestCa(dataDir) {
  const { createTestCertificateAuthority, loadTestCertificateAuthority } = await import('@talao/icp-test-ca');
  const paths = testCaPaths(dataDir);
  if (existsSync(paths.certificate) && existsSync(paths.privateKey)) {
    const ca = loadTestCertificateAuthority({
      caCertificatePem: await readFile(paths.certificate, 'utf8'),
      caPrivateKeyPem: await readFile(paths.privateKey, 'utf8'),
    });
    return { ca, paths, created: false };
  }
  const ca = createTestCertificateAuthority();
  await mkdir(paths.dir, { recursive: true });
  await writeFile(paths.certificate, ca.caCertificatePem);
  await writeFile(paths.privateKey, ca.caPrivateKeyPem, { mode: 0o600 });
  return { ca, paths, created: true };
}
