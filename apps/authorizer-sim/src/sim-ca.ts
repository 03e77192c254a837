import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestCertificateAuthority, loadTestCertificateAuthority, type TestCertificateAuthority } from '@talao/icp-test-ca';

export interface SimTlsMaterial {
  ca: TestCertificateAuthority;
  serverKeyPem: string;
  serverCertificatePem: string;
}

export const CA_CERTIFICATE_FILE = 'ca-certificate.pem';
const CA_KEY_FILE = 'ca-private-key.pem';

/**
 * The simulator's test CA lives in its data dir (or comes from SIM_CA_CERTIFICATE_PEM / SIM_CA_PRIVATE_KEY_PEM), so
 * other processes can trust it and every restart keeps issuing certificates they already trust. The TLS server
 * certificate is issued afresh at each start for the configured host names.
 */
export function loadOrCreateSimCa(dataDir: string, hostnames: string[], env: NodeJS.ProcessEnv = process.env): SimTlsMaterial {
  let ca: TestCertificateAuthority;
  const fromEnv = env.SIM_CA_CERTIFICATE_PEM && env.SIM_CA_PRIVATE_KEY_PEM;
  const certificateFile = join(dataDir, CA_CERTIFICATE_FILE);
  const keyFile = join(dataDir, CA_KEY_FILE);
  if (fromEnv) {
    ca = loadTestCertificateAuthority({
      caCertificatePem: env.SIM_CA_CERTIFICATE_PEM as string,
      caPrivateKeyPem: env.SIM_CA_PRIVATE_KEY_PEM as string,
    });
  } else if (existsSync(certificateFile) && existsSync(keyFile)) {
    ca = loadTestCertificateAuthority({
      caCertificatePem: readFileSync(certificateFile, 'utf8'),
      caPrivateKeyPem: readFileSync(keyFile, 'utf8'),
    });
  } else {
    ca = createTestCertificateAuthority({ commonName: 'Talao Authorizer Simulator Test CA' });
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(certificateFile, ca.caCertificatePem);
  if (!fromEnv) writeFileSync(keyFile, ca.caPrivateKeyPem, { mode: 0o600 });
  const server = ca.issueServerCertificate(hostnames);
  return { ca, serverKeyPem: server.keyPem, serverCertificatePem: server.certificatePem };
}
