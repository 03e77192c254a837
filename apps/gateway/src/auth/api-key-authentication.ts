import { type AccessTokenVerifier, InvalidAccessTokenError, looksLikeJwt } from '@talao/access-tokens';
import type { Authentication, GatewayRequest, GatewayResponse, Next } from '../http/gateway-request.js';
import type { ApiKeysById } from './oauth-accounts.js';

/** A stored key as the repository resolves it (its company included). */
export interface ResolvedApiKey {
  id: string;
  name: string;
  prefix: string;
  environment: 'homologation' | 'production';
  context: 'sdk' | 'api';
  revokedAt: Date | null;
  company: { id: string; taxId: string; legalName: string; tradeName: string | null };
}

export interface ApiKeyLookup {
  /** True when the text has the shape of a Talão key (so "malformed" and "unknown" answer differently). */
  isWellFormed(key: string): boolean;
  resolve(key: string): Promise<ResolvedApiKey | null>;
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** OAuth access tokens (the MCP interface's authorization server), when it is configured. */
export interface AccessTokenAuthentication {
  readonly verify: AccessTokenVerifier;
  readonly keysById: ApiKeysById;
}

/**
 * An OAuth access token acts as the API key the person proved when authorizing, narrowed to the granted scopes
 * (enforced per operation by token-scopes.ts). Its key must still be usable: revoking the key ends its tokens.
 */
async function authenticateAccessToken(oauth: AccessTokenAuthentication, token: string): Promise<Authentication> {
  let verified;
  try {
    verified = await oauth.verify(token);
  } catch (error) {
    if (error instanceof InvalidAccessTokenError) return { ok: false, detail: error.detail };
    throw error;
  }
  const key = await oauth.keysById.byId({ companyId: verified.companyId, apiKeyId: verified.apiKeyId });
  if (!key || key.revokedAt || key.context !== 'api' || key.environment !== verified.environment) {
    return { ok: false, detail: 'The API key this access token was authorized with has been revoked' };
  }
  return { ok: true, caller: { ...callerOf(key), oauth: { clientId: verified.clientId, scopes: verified.scopes } } };
}

/** The caller an active key of context `api` stands for (an access token adds its client and scopes). */
function callerOf(key: NonNullable<Awaited<ReturnType<ApiKeyLookup['resolve']>>>) {
  return {
    apiKeyId: key.id,
    apiKeyName: key.name,
    apiKeyPrefix: key.prefix,
    environment: key.environment,
    company: { id: key.company.id, taxId: key.company.taxId, legalName: key.company.legalName, tradeName: key.company.tradeName },
  };
}

/** Decides who is calling, without answering: the guard answers 401, the rate limiter needs the verdict first. */
export async function authenticate(
  lookup: ApiKeyLookup,
  authorization: string | undefined,
  oauth?: AccessTokenAuthentication,
): Promise<Authentication> {
  if (!authorization) return { ok: false, detail: 'Missing API key: send the header Authorization: Bearer <api key>' };
  const token = BEARER.exec(authorization)?.[1];
  if (!token) return { ok: false, detail: 'The Authorization header must use the Bearer scheme: Authorization: Bearer <api key>' };
  if (oauth && looksLikeJwt(token)) return authenticateAccessToken(oauth, token);
  if (!lookup.isWellFormed(token)) return { ok: false, detail: 'Malformed API key' };
  const key = await lookup.resolve(token);
  if (!key) return { ok: false, detail: 'Unknown or revoked API key' };
  if (key.revokedAt) return { ok: false, detail: 'This API key has been revoked' };
  if (key.context !== 'api') {
    return {
      ok: false,
      detail:
        'This API key has context "sdk", for the SDKs; the REST API, and the MCP server that calls it with the caller’s own key, need a key of context "api"',
    };
  }
  return { ok: true, caller: callerOf(key) };
}

/**
 * Express middleware for /api/v1: attaches `req.authentication` for the rate limiter and the guard. A failed lookup
 * does not short-circuit here, so the response still passes the rate limiter (and gets its headers) first.
 */
export function authenticateApiKeys(lookup: ApiKeyLookup, oauth?: AccessTokenAuthentication) {
  return (req: GatewayRequest, _res: GatewayResponse, next: Next): void => {
    authenticate(lookup, req.headers.authorization, oauth).then(
      (authentication) => {
        req.authentication = authentication;
        next();
      },
      (failure: unknown) => {
        req.authentication = { ok: false, detail: 'Authentication unavailable', failure };
        next();
      },
    );
  };
}
