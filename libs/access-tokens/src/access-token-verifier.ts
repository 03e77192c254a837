// Verifies the authorization server's access tokens on the resource side (gateway and MCP app) with jose: signature
// against the server's key set, `typ: at+jwt` (RFC 9068, so an ID token or another JWT cannot pass for one), issuer,
// audience (the MCP URL, RFC 8707), expiry. The subject names the company and the API key the person proved
// (`<company_id>:<api_key_id>`, set by the authorization server).
import { createLocalJWKSet, createRemoteJWKSet, errors, type JSONWebKeySet, jwtVerify } from 'jose';
import { AcceptedCredentials, type AcceptedCredentialsOptions } from './accepted-credentials.js';
import { parseScopes, type Scope } from './scopes.js';

export interface VerifiedAccessToken {
  readonly companyId: string;
  readonly apiKeyId: string;
  readonly environment: 'homologation' | 'production';
  readonly clientId: string;
  readonly scopes: ReadonlySet<Scope>;
  readonly expiresAt: number;
}

export class InvalidAccessTokenError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'InvalidAccessTokenError';
  }
}

export interface AccessTokenVerifierOptions {
  readonly issuer: string;
  /** The resource the token must be for: the MCP URL. */
  readonly audience: string;
  /** The key set: a URL (the issuer's jwks_uri, fetched and cached) or the keys themselves (same process). */
  readonly keys: URL | JSONWebKeySet | (() => Promise<JSONWebKeySet>);
}

/** Three base64url segments: the shape of a JWT, never of a Talão API key (`talao_<env>_…`). */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

const SUBJECT = /^([0-9a-f-]{36}):([0-9a-f-]{36})$/;

export type AccessTokenVerifier = (token: string) => Promise<VerifiedAccessToken>;

export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  let keySet: Parameters<typeof jwtVerify>[1] | undefined;
  const resolveKeys = async () => {
    if (keySet) return keySet;
    if (options.keys instanceof URL) keySet = createRemoteJWKSet(options.keys, { cooldownDuration: 30_000 });
    else if (typeof options.keys === 'function') keySet = createLocalJWKSet(await options.keys());
    else keySet = createLocalJWKSet(options.keys);
    return keySet;
  };
  return async (token) => {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, (await resolveKeys()) as never, {
        typ: 'at+jwt',
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['ES256'],
        requiredClaims: ['exp', 'sub', 'client_id'],
      }));
    } catch (error) {
      throw new InvalidAccessTokenError(describe(error));
    }
    const subject = SUBJECT.exec(String(payload['sub']));
    const environment = payload['environment'];
    if (!subject || (environment !== 'homologation' && environment !== 'production')) {
      throw new InvalidAccessTokenError('The access token does not name a company and environment');
    }
    return {
      companyId: subject[1]!,
      apiKeyId: subject[2]!,
      environment,
      clientId: String(payload['client_id']),
      scopes: parseScopes(payload['scope']),
      expiresAt: Number(payload['exp']),
    };
  };
}

/** Why a token was refused, in words safe to send back (never the token itself). */
function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'The access token was issued for another resource (audience)';
    if (error.claim === 'iss') return 'The access token was issued by another authorization server';
    if (error.claim === 'typ') return 'The token is not an OAuth access token (typ at+jwt)';
    return `The access token's ${error.claim} claim is not acceptable`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return 'The access token signature does not verify';
  }
  return 'The access token is malformed or cannot be verified';
}

/**
 * RFC 6750 §3 challenge. `resourceMetadata` (RFC 9728 §5.1) tells an MCP client where to discover the authorization
 * server; `scope` on insufficient_scope names what the operation needs.
 */
export function bearerChallenge(options: {
  error?: 'invalid_token' | 'insufficient_scope';
  description?: string;
  scope?: string;
  resourceMetadata?: string;
}): string {
  const parts: string[] = [];
  if (options.resourceMetadata) parts.push(`resource_metadata="${options.resourceMetadata}"`);
  if (options.error) parts.push(`error="${options.error}"`);
  if (options.description) parts.push(`error_description="${options.description.replace(/["\\]/g, '')}"`);
  if (options.scope) parts.push(`scope="${options.scope}"`);
  return parts.length > 0 ? `Bearer ${parts.join(', ')}` : 'Bearer';
}

/**
 * An agent sends the same access token on every call for its few minutes of life; a signature check per call is
 * wasted work. Verified tokens are remembered by their SHA-256 for at most `maxAgeMs` and never past their `exp`;
 * refused ones are not remembered. What the cache cannot see (the API key behind a token being revoked) is the
 * caller's to check, as the gateway does on every call.
 */
export function cachedAccessTokenVerifier(verify: AccessTokenVerifier, options: AcceptedCredentialsOptions = {}): AccessTokenVerifier {
  const accepted = new AcceptedCredentials<VerifiedAccessToken>(options);
  return async (token) => {
    const remembered = accepted.recall(token);
    if (remembered) return remembered;
    const verified = await verify(token);
    accepted.remember(token, verified, verified.expiresAt * 1000);
    return verified;
  };
}
