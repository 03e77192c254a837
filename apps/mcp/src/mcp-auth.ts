// Who is calling /mcp, decided before the MCP server runs. Two credentials at one address (SPEC.md Authentication 7):
// - a company API key: checked with the REST API (GET /api/v1/me, an accepted key remembered for 30 s) so a made-up
//   bearer gets its 401 here and never lists tools or runs validate_invoice_payload; then passed to the REST API as
//   is, which decides every call (it holds every scope of its company);
// - an OAuth access token of the authorization server (the gateway's /oauth): verified here with jose (signature
//   from the published jwks_uri, typ at+jwt, issuer, audience = this server's URL, expiry) so a token for another
//   resource never reaches the API, then passed on as is: the REST API verifies it again and enforces its scopes
//   (SPEC.md Authentication 8). No token exchange: the API must see the narrowed credential, not a broader one.
// 401s carry `WWW-Authenticate: Bearer resource_metadata=…` (RFC 9728 §5.1), so an MCP client can discover the
// authorization server; a tools/call the token's scopes do not cover answers 403 insufficient_scope (MCP
// authorization, "scope challenge"), naming the scope to ask for.
import type { IncomingMessage } from 'node:http';
import {
  AcceptedCredentials,
  type AcceptedCredentialsOptions,
  type AccessTokenVerifier,
  bearerChallenge,
  cachedAccessTokenVerifier,
  createAccessTokenVerifier,
  InvalidAccessTokenError,
  looksLikeJwt,
  SCOPES,
  type Scope,
  TOOL_SCOPES,
} from '@talao/access-tokens';
import { GatewayClient } from '@talao/mcp-tools';

export interface McpAuthOptions {
  /** This server's public /mcp URL: the OAuth resource and the audience its tokens must name. */
  readonly publicUrl: string;
  /** The authorization server's issuer; absent: API keys only. */
  readonly oauthIssuer?: string;
  /** Where the issuer publishes its keys (default {issuer}/jwks, oidc-provider's route). */
  readonly jwksUrl?: string;
}

export type Caller =
  | { readonly kind: 'api-key'; readonly authorization: string }
  | { readonly kind: 'access-token'; readonly authorization: string; readonly scopes: ReadonlySet<Scope> };

export interface Refusal {
  readonly status: 401 | 403 | 503;
  /** WWW-Authenticate; absent when the credential could not be checked at all (503). */
  readonly challenge?: string;
  readonly detail: string;
  readonly scope?: Scope;
}

export class McpAuth {
  readonly resourceMetadataUrl: string;
  private readonly verify?: AccessTokenVerifier;

  constructor(
    private readonly options: McpAuthOptions,
    private readonly checkApiKey: ApiKeyCheck,
  ) {
    const url = new URL(options.publicUrl);
    // RFC 9728 §3.1: the well-known segment goes between the host and the resource's path.
    this.resourceMetadataUrl = `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}`;
    if (options.oauthIssuer) {
      this.verify = cachedAccessTokenVerifier(
        createAccessTokenVerifier({
          issuer: options.oauthIssuer,
          audience: options.publicUrl,
          keys: new URL(options.jwksUrl ?? `${options.oauthIssuer}/jwks`),
        }),
      );
    }
  }

  /** The RFC 9728 document (SPEC.md Authentication 9). */
  protectedResourceMetadata(): Record<string, unknown> {
    return {
      resource: this.options.publicUrl,
      authorization_servers: this.options.oauthIssuer ? [this.options.oauthIssuer] : [],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Talão MCP server (NF-e and NFS-e)',
    };
  }

  async authenticate(req: IncomingMessage): Promise<Caller | Refusal> {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) {
      return this.refuse(
        401,
        this.verify
          ? 'Missing credential: send a company API key as Authorization: Bearer <key>, or an OAuth access token (see the resource metadata)'
          : 'Missing credential: send a company API key as Authorization: Bearer <key>',
      );
    }
    const token = match[1]!;
    const authorization = `Bearer ${token}`;
    if (!looksLikeJwt(token) || !this.verify) {
      const verdict = await this.checkApiKey(authorization);
      if (verdict === 'accepted') return { kind: 'api-key', authorization };
      if (verdict === 'unavailable') return { status: 503, detail: 'The REST API cannot be reached to check the credential; try again' };
      return this.refuse(401, verdict.refused, 'invalid_token');
    }
    try {
      const verified = await this.verify(token);
      return { kind: 'access-token', authorization, scopes: verified.scopes };
    } catch (error) {
      if (error instanceof InvalidAccessTokenError) return this.refuse(401, error.detail, 'invalid_token');
      throw error;
    }
  }

  /** The refusal for a JSON-RPC body calling a tool the caller's token does not cover, or undefined. */
  checkToolScopes(caller: Caller, body: unknown): Refusal | undefined {
    if (caller.kind !== 'access-token') return undefined;
    for (const message of Array.isArray(body) ? body : [body]) {
      const call = message as { method?: unknown; params?: { name?: unknown } } | null;
      if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') continue;
      const required = TOOL_SCOPES[call.params.name];
      if (required && !caller.scopes.has(required)) {
        return this.refuse(
          403,
          `The tool ${call.params.name} needs the scope ${required}, which this access token was not granted`,
          'insufficient_scope',
          required,
        );
      }
    }
    return undefined;
  }

  private refuse(status: 401 | 403, detail: string, error?: 'invalid_token' | 'insufficient_scope', scope?: Scope): Refusal {
    return {
      status,
      detail,
      challenge: bearerChallenge({
        resourceMetadata: this.resourceMetadataUrl,
        ...(error && { error }),
        ...(error === 'invalid_token' && { description: detail }),
        ...(scope && { scope }),
      }),
      ...(scope && { scope }),
    };
  }
}

/** The REST API's verdict on an API key: accepted, refused (with the API's detail), or unknown (API unreachable). */
export type ApiKeyCheck = (authorization: string) => Promise<'accepted' | 'unavailable' | { readonly refused: string }>;

/**
 * Asks the REST API (GET /api/v1/me, which every valid key may call) whether it accepts the key. An accepted key is
 * remembered by its SHA-256 for `maxAgeMs`, so an agent's calls cost one check per half minute; a refused one is not
 * remembered (the API's own limits meter those). A key revoked meanwhile still reaches no data: the API checks every
 * call the tools make.
 */
export function gatewayApiKeyCheck(gatewayUrl: string, options: AcceptedCredentialsOptions = {}): ApiKeyCheck {
  const accepted = new AcceptedCredentials<true>(options);
  return async (authorization) => {
    if (accepted.recall(authorization)) return 'accepted';
    const answer = await new GatewayClient(gatewayUrl, authorization).request('GET', 'api/v1/me').catch(() => undefined);
    if (answer?.status === 200) {
      accepted.remember(authorization, true);
      return 'accepted';
    }
    if (answer?.status === 401 || answer?.status === 403) {
      const detail = answer.json?.['detail'];
      return { refused: typeof detail === 'string' ? detail : 'The API key is not valid' };
    }
    return 'unavailable';
  };
}
