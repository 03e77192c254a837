// Why the authorization server lives in the gateway: the person proves a company API key on its consent page, and the
// gateway is what owns the keys (and PostgreSQL); the gateway is also where scopes are enforced (SPEC.md
// Authentication 8), so it verifies its own tokens with the keys in memory, no JWKS round trip. The MCP app stays a
// stateless client of the REST API with no database, and verifies tokens through the published jwks_uri.
import type { Logger } from '@talao/observability';
import { cachedAccessTokenVerifier, createAccessTokenVerifier } from '@talao/access-tokens';
import { authorizationHttpHandler, createAuthorizationServer, deleteExpiredOAuthRecords } from '@talao/authorization-server';
import type { GatewayConfig } from '@talao/config';
import type { GatewayResources } from '../gateway-resources.js';
import type { GatewayRequest, GatewayResponse, Next } from '../http/gateway-request.js';
import type { AccessTokenAuthentication } from './api-key-authentication.js';
import { oauthAccountKeys } from './oauth-accounts.js';

export interface MountedAuthorizationServer {
  readonly tokens: AccessTokenAuthentication;
  readonly handler: (req: GatewayRequest, res: GatewayResponse, next: Next) => void;
}

export async function mountAuthorizationServer(
  oauth: NonNullable<GatewayConfig['oauth']>,
  config: GatewayConfig,
  resources: GatewayResources,
  logger: Logger,
): Promise<MountedAuthorizationServer> {
  const accounts = oauthAccountKeys(resources.apiKeyLookup, resources.apiKeysById);
  const server = await createAuthorizationServer({
    issuer: oauth.issuer,
    resource: oauth.resource,
    prisma: resources.prisma,
    vault: resources.certificateVault,
    encryptionKeyBase64: config.certificateEncryptionKey,
    accounts,
    trustProxy: config.trustedProxies.length > 0,
    ...(process.env.OAUTH_ACCESS_TOKEN_TTL_SECONDS && { accessTokenTtlSeconds: Number(process.env.OAUTH_ACCESS_TOKEN_TTL_SECONDS) }),
  });
  // The provider reports failures as events; log the error class and message only (never a request: it may carry a key).
  server.provider.on('server_error', (_ctx: unknown, error: Error) =>
    logger.error({ error: error.message, name: error.name }, 'oauth server error'),
  );
  // Verified tokens are remembered briefly; the key behind each is still checked on every call (api-key-authentication.ts).
  const verify = cachedAccessTokenVerifier(
    createAccessTokenVerifier({ issuer: oauth.issuer, audience: oauth.resource, keys: server.publicJwks as never }),
  );
  logger.info({ issuer: oauth.issuer, resource: oauth.resource }, 'OAuth authorization server mounted');
  // Expired codes, sessions and tokens are never read again (the adapter ignores them); drop them now and then.
  setInterval(() => {
    deleteExpiredOAuthRecords(resources.prisma).catch((error: Error) => logger.warn({ error: error.message }, 'oauth cleanup failed'));
  }, 15 * 60_000).unref();
  return {
    tokens: { verify, keysById: resources.apiKeysById },
    handler: authorizationHttpHandler(server, accounts, {
      onError: (error) => logger.error({ error: (error as Error).message }, 'oauth interaction failed'),
    }),
  };
}
