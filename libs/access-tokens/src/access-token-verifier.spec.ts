// The verifier refuses every token that is not exactly an access token of this issuer for this resource, each with a
// reason an agent can read; it accepts the real thing and reads company, key, environment and scopes from it.
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { cachedAccessTokenVerifier, createAccessTokenVerifier, InvalidAccessTokenError, looksLikeJwt } from './access-token-verifier.js';

const ISSUER = 'https://api.example/oauth';
const MCP = 'https://mcp.example/mcp';
const SUB = '11111111-1111-4111-8111-111111111111:22222222-2222-4222-8222-222222222222';

let sign: (claims: Record<string, unknown>, typ?: string, key?: CryptoKey) => Promise<string>;
let verify: ReturnType<typeof createAccessTokenVerifier>;
let otherKey: CryptoKey;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  otherKey = (await generateKeyPair('ES256')).privateKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  verify = createAccessTokenVerifier({ issuer: ISSUER, audience: MCP, keys: { keys: [jwk] } });
  sign = (claims, typ = 'at+jwt', key = privateKey) =>
    new SignJWT({ client_id: 'c1', scope: 'invoice:read invoice:issue other', environment: 'homologation', ...claims })
      .setProtectedHeader({ alg: 'ES256', typ, kid: 'k1' })
      .setIssuer(String(claims['iss'] ?? ISSUER))
      .setAudience(String(claims['aud'] ?? MCP))
      .setSubject(SUB)
      .setIssuedAt()
      .setExpirationTime(Number(claims['exp'] ?? Math.floor(Date.now() / 1000) + 300))
      .sign(key);
});

it('accepts an access token for this resource and reads it', async () => {
  const verified = await verify(await sign({}));
  expect(verified).toMatchObject({
    companyId: '11111111-1111-4111-8111-111111111111',
    apiKeyId: '22222222-2222-4222-8222-222222222222',
    environment: 'homologation',
    clientId: 'c1',
  });
  expect([...verified.scopes]).toEqual(['invoice:read', 'invoice:issue']);
});

it.each([
  ['another audience', () => sign({ aud: 'https://other.example/mcp' }), 'another resource'],
  ['another issuer', () => sign({ iss: 'https://evil.example' }), 'another authorization server'],
  ['expired', () => sign({ exp: Math.floor(Date.now() / 1000) - 120 }), 'expired'],
  ['an ID token (typ JWT)', () => sign({}, 'JWT'), 'typ at+jwt'],
  ['another key', () => sign({}, 'at+jwt', otherKey), 'signature'],
])('refuses %s', async (_name, make, reason) => {
  const token = await make();
  await expect(verify(token)).rejects.toThrow(InvalidAccessTokenError);
  await expect(verify(token)).rejects.toThrow(reason);
});

it('tells a JWT from an API key by shape', () => {
  expect(looksLikeJwt('a.b.c')).toBe(true);
  expect(looksLikeJwt('talao_hml_0123456789abcdef_abc')).toBe(false);
});

it('the cached verifier checks a token once, never past its expiry, and never remembers a refusal', async () => {
  let clock = Date.now();
  let calls = 0;
  const counting: typeof verify = async (token) => {
    calls++;
    return verify(token);
  };
  const cached = cachedAccessTokenVerifier(counting, { maxAgeMs: 60_000, now: () => clock });
  const token = await sign({ exp: Math.floor(clock / 1000) + 10 });
  await cached(token);
  await cached(token);
  expect(calls).toBe(1);
  clock += 11_000; // past exp: checked again (and refused by the real verifier's clock only when really expired)
  await cached(token).catch(() => undefined);
  expect(calls).toBe(2);
  const refused = await sign({ aud: 'https://other.example/mcp' });
  await expect(cached(refused)).rejects.toThrow(InvalidAccessTokenError);
  await expect(cached(refused)).rejects.toThrow(InvalidAccessTokenError);
  expect(calls).toBe(4);
});
