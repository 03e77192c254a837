// The OAuth 2.1 authorization server of the MCP interface, on oidc-provider (maintained, certified; the SDK's own
// ProxyOAuthServerProvider is frozen). What it is configured to do:
// - dynamic client registration (RFC 7591), public clients (token_endpoint_auth_method none) by default;
// - authorization code only, PKCE required (oidc-provider 9 implements S256 only, `plain` is refused);
// - resource indicators (RFC 8707): the only resource server is the MCP URL; access tokens are JWTs (`typ: at+jwt`,
//   RFC 9068) with `aud` = MCP URL, the granted resource scopes, `environment`, and `sub` = `<company>:<api key id>`;
// - RFC 9207 `iss` in authorization responses, RFC 8414 metadata, refresh-token rotation, revocation (RFC 7009);
// - state in PostgreSQL (prisma-adapter.ts), the signing key sealed there too (signing-keys.ts).
// The resource scopes are in the top-level `scopes` list too: a client registering them in its `scope` metadata, as
// an MCP client does with the resource's scopes_supported, is refused otherwise ("scope must only contain
// Authorization Server supported scope values"), and the metadata's scopes_supported names them. The consent page
// grants them both ways (resource and OIDC), so the provider asks for them once.
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { SCOPES } from '@talao/access-tokens';
import type { CertificateVault, PrismaClient } from '@talao/persistence';
import { type AccountKeys, parseAccountId } from './accounts.js';
import { prismaAdapter } from './prisma-adapter.js';
import { cookieKeysFrom, loadOrCreateSigningKey, publicJwkOf } from './signing-keys.js';

export interface AuthorizationServerOptions {
  /** The issuer: the public URL the server is mounted at, e.g. https://api.example.com/oauth. */
  readonly issuer: string;
  /** The MCP URL: the resource indicator and the `aud` of every access token. */
  readonly resource: string;
  readonly prisma: PrismaClient;
  readonly vault: CertificateVault;
  /** Base64 key the cookie keys derive from (the certificate encryption key). */
  readonly encryptionKeyBase64: string;
  readonly accounts: AccountKeys;
  /** Believe X-Forwarded-* (only when the gateway is told it sits behind proxies). */
  readonly trustProxy?: boolean;
  /** Access-token lifetime, seconds (default 300: short, refresh tokens renew them). */
  readonly accessTokenTtlSeconds?: number;
}

export interface AuthorizationServer {
  readonly provider: Provider;
  readonly issuer: string;
  readonly resource: string;
  /** The public key set, for a verifier in the same process. */
  readonly publicJwks: { keys: object[] };
  /** The path prefix the server is mounted at (the issuer's path, e.g. /oauth). */
  readonly mountPath: string;
}

const DAY = 24 * 60 * 60;

export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const signingKey = await loadOrCreateSigningKey(options.prisma, options.vault, options.encryptionKeyBase64);
  const mountPath = new URL(options.issuer).pathname.replace(/\/$/, '');
  const accessTokenTTL = options.accessTokenTtlSeconds ?? 300;

  const configuration: Configuration = {
    adapter: prismaAdapter(options.prisma),
    jwks: { keys: [signingKey.privateJwk as never] },
    cookies: { keys: cookieKeysFrom(options.encryptionKeyBase64) },
    clients: [],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    scopes: ['openid', 'offline_access', ...SCOPES],
    claims: { openid: ['sub'] },
    pkce: { required: () => true },
    responseTypes: ['code'],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      // SPEC.md's "client metadata document": a client_id that is an https URL of the client's own metadata
      // (draft-02, acknowledged as the provider requires for drafts). Only https URLs are fetched.
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: async (_ctx, clientId) => new URL(clientId).protocol === 'https:',
      },
      // A client revokes its own tokens only.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== options.resource)
            throw new errors.InvalidTarget(`unknown resource; this server issues tokens for ${options.resource}`);
          return {
            scope: SCOPES.join(' '),
            audience: options.resource,
            accessTokenTTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    // Every client gets refresh tokens (MCP clients rarely ask for offline_access); public clients' refresh tokens
    // rotate on every use (the provider's default for auth method none), a reused one revokes the grant.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: accessTokenTTL,
      AuthorizationCode: 60,
      Interaction: 10 * 60,
      Session: DAY,
      Grant: 30 * DAY,
      RefreshToken: 30 * DAY,
    },
    async findAccount(_ctx, sub) {
      const account = parseAccountId(sub);
      if (!account || !(await options.accounts.isUsable(account))) return undefined;
      return { accountId: sub, claims: () => ({ sub }) };
    },
    async extraTokenClaims(_ctx, token) {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      const account = accountId ? parseAccountId(accountId) : undefined;
      if (!account) return undefined;
      return { environment: await options.accounts.environmentOf(account) };
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Authorization error</title><h1>Authorization error</h1><p>${escapeHtml(
        String(out['error_description'] ?? out['error'] ?? 'error'),
      )}</p>`;
    },
  };
  const provider = new Provider(options.issuer, configuration);
  // As the gateway: forwarded headers count only from the proxies the operator listed (TRUSTED_PROXIES).
  provider.proxy = options.trustProxy ?? false;
  return {
    provider,
    issuer: options.issuer,
    resource: options.resource,
    publicJwks: { keys: [publicJwkOf(signingKey)] },
    mountPath,
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
