// CERTIFICATE_TRUST_BUNDLE_FILE, read once at boot (the gateway and the operator CLI): the ICP-Brasil CAs an
// uploaded A1 must chain to. An unreadable file, or one without CA certificates, stops the boot like any bad setting.
import { readFileSync } from 'node:fs';
import { parseCertificateTrustBundle } from '@talao/company-admin';
import { ConfigError } from '@talao/config';

export function readCertificateTrustBundle(file: string | undefined): string[] {
  if (!file) return [];
  try {
    return parseCertificateTrustBundle(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`CERTIFICATE_TRUST_BUNDLE_FILE (${file}): ${error instanceof Error ? error.message : String(error)}`]);
  }
}
