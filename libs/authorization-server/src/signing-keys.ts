// The ES256 key that signs access tokens, created once per certificate encryption key and shared by every gateway
// instance through PostgreSQL, sealed with the certificate vault (AES-256-GCM under CERTIFICATE_ENCRYPTION_KEY). Its
// kid is derived from that encryption key, so instances configured alike share one row, and a rotated encryption key
// (or another platform on the same database) gets a key of its own instead of failing to open someone else's: the
// tokens signed before a rotation stop verifying, and clients refresh (access tokens live minutes). Two instances
// booting at the same time both try to insert the key; the loser's insert is skipped and both read the same row.
import { createHash, generateKeyPairSync, hkdfSync, type JsonWebKey } from 'node:crypto';
import type { CertificateVault, PrismaClient } from '@talao/persistence';

export interface SigningKey {
  /** The private JWK with its kid, alg and use: what oidc-provider's `jwks` takes. */
  readonly privateJwk: JsonWebKey & { kid: string; alg: string; use: string };
}

/** The kid of the encryption key's signing key: a one-way derivation (HKDF), so the kid reveals nothing of the key. */
export function signingKeyIdFor(encryptionKeyBase64: string): string {
  const material = Buffer.from(encryptionKeyBase64.trim(), 'base64');
  const derived = hkdfSync('sha256', material, 'talao-oauth', 'oauth signing key id', 12);
  return `talao-oauth-${Buffer.from(derived).toString('base64url')}`;
}

export async function loadOrCreateSigningKey(
  prisma: PrismaClient,
  vault: CertificateVault,
  encryptionKeyBase64: string,
): Promise<SigningKey> {
  const kid = signingKeyIdFor(encryptionKeyBase64);
  const existing = await prisma.oAuthSigningKey.findUnique({ where: { kid } });
  if (!existing) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = privateKey.export({ format: 'jwk' });
    await prisma.oAuthSigningKey.createMany({
      data: [{ kid, sealedJwk: new Uint8Array(vault.encrypt(Buffer.from(JSON.stringify(jwk)))) }],
      skipDuplicates: true,
    });
  }
  const row = await prisma.oAuthSigningKey.findUniqueOrThrow({ where: { kid } });
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
