// The ES256 key that signs access tokens, created once and shared by every gateway instance through PostgreSQL,
// sealed with the certificate vault (AES-256-GCM under CERTIFICATE_ENCRYPTION_KEY). Two instances booting at the
// same time both try to insert the first key; the loser's insert is skipped and both read the same row.
import { createHash, generateKeyPairSync, hkdfSync, type JsonWebKey } from 'node:crypto';
import type { CertificateVault, PrismaClient } from '@talao/persistence';

const FIRST_KEY_ID = 'talao-oauth-1';

export interface SigningKey {
  /** The private JWK with its kid, alg and use: what oidc-provider's `jwks` takes. */
  readonly privateJwk: JsonWebKey & { kid: string; alg: string; use: string };
}

export async function loadOrCreateSigningKey(prisma: PrismaClient, vault: CertificateVault): Promise<SigningKey> {
  const existing = await prisma.oAuthSigningKey.findUnique({ where: { kid: FIRST_KEY_ID } });
  if (!existing) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = privateKey.export({ format: 'jwk' });
    await prisma.oAuthSigningKey.createMany({
      data: [{ kid: FIRST_KEY_ID, sealedJwk: new Uint8Array(vault.encrypt(Buffer.from(JSON.stringify(jwk)))) }],
      skipDuplicates: true,
    });
  }
  const row = await prisma.oAuthSigningKey.findUniqueOrThrow({ where: { kid: FIRST_KEY_ID } });
  const jwk = JSON.parse(vault.decrypt(Buffer.from(row.sealedJwk)).toString('utf8')) as JsonWebKey;
  return { privateJwk: { ...jwk, kid: row.kid, alg: 'ES256', use: 'sig' } };
}

/** The public half, for a verifier in the same process (no HTTP round trip to our own jwks_uri). */
export function publicJwkOf(key: SigningKey): JsonWebKey & { kid: string; alg: string; use: string } {
  const { d: _d, ...publicJwk } = key.privateJwk;
  return publicJwk;
}

/**
 * Keys for the provider's signed cookies, derived from the encryption key (HKDF) so every instance signs alike and
 * no second secret needs distributing; a different `info` keeps them independent of the vault's own use.
 */
export function cookieKeysFrom(encryptionKeyBase64: string): string[] {
  const material = Buffer.from(encryptionKeyBase64.trim(), 'base64');
  const derived = hkdfSync('sha256', material, 'talao-oauth', 'oidc-provider cookie signing', 32);
  return [createHash('sha256').update(Buffer.from(derived)).digest('base64url')];
}
