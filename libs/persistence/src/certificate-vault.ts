// Envelope encryption of A1 certificates (PKCS#12 bytes and their passwords) at rest, AES-256-GCM.
//
// Sealed layout: [key version: 1 byte][IV: 12 bytes][auth tag: 16 bytes][ciphertext]. The version byte says which key
// sealed the value, so a new key can be introduced (CERTIFICATE_ENCRYPTION_KEY) while older rows are still readable
// with the previous one; it is also authenticated (as AAD), so it cannot be swapped without detection.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

export interface CertificateVaultOptions {
  /** Version written into values sealed with the current key (1–255). */
  keyVersion?: number;
  /** Earlier keys by version (base64), for reading values sealed before a rotation. */
  previousKeys?: Record<number, string>;
}

function decodeKey(keyBase64: string, label: string): Buffer {
  const key = Buffer.from(keyBase64.trim(), 'base64');
  if (key.length !== 32) {
    throw new Error(`${label} must be 32 random bytes in base64 (e.g. \`openssl rand -base64 32\`), got ${key.length} bytes`);
  }
  return key;
}

function assertVersion(version: number): void {
  if (!Number.isInteger(version) || version < 1 || version > 255) throw new Error(`key version must be 1–255, got ${version}`);
}

export class CertificateVault {
  readonly keyVersion: number;
  private readonly keys = new Map<number, Buffer>();

  constructor(keyBase64: string, options: CertificateVaultOptions = {}) {
    this.keyVersion = options.keyVersion ?? 1;
    assertVersion(this.keyVersion);
    for (const [version, key] of Object.entries(options.previousKeys ?? {})) {
      assertVersion(Number(version));
      this.keys.set(Number(version), decodeKey(key, `previous key ${version}`));
    }
    this.keys.set(this.keyVersion, decodeKey(keyBase64, 'CERTIFICATE_ENCRYPTION_KEY'));
  }

  encrypt(plain: Buffer): Buffer {
    const header = Buffer.from([this.keyVersion]);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyVersion)!, iv);
    cipher.setAAD(header);
    const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]);
  }

  /** Throws on a wrong key, an unknown key version or any modified byte. */
  decrypt(sealed: Buffer): Buffer {
    if (sealed.length < HEADER_BYTES) throw new Error('sealed certificate data is truncated');
    const version = sealed[0]!;
    const key = this.keys.get(version);
    if (!key) throw new Error(`sealed with key version ${version}, which this vault does not hold`);
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, HEADER_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(sealed.subarray(0, 1));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
    } catch {
      throw new Error('certificate data could not be decrypted: wrong key or tampered data');
    }
  }
}
