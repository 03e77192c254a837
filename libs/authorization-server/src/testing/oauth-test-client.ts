// A minimal OAuth 2.1 public client for tests and the benchmark, speaking plain HTTP to the authorization server as a
// browser and an MCP client would: discovery, dynamic registration, authorization with PKCE (the consent form posted
// with an API key), code exchange, refresh, revocation. Every step is observable, so negative tests can bend one.
import { createHash, randomBytes } from 'node:crypto';

export interface ServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly registration_endpoint: string;
  readonly revocation_endpoint: string;
  readonly jwks_uri: string;
  readonly code_challenge_methods_supported?: string[];
  readonly scopes_supported?: string[];
  readonly authorization_response_iss_parameter_supported?: boolean;
}

export async function discover(issuer: string): Promise<ServerMetadata> {
  const url = new URL(issuer);
  // RFC 8414 §3: the well-known segment goes between the host and the issuer's path.
  const response = await fetch(`${url.origin}/.well-known/oauth-authorization-server${url.pathname.replace(/\/$/, '')}`);
  if (response.status !== 200) throw new Error(`discovery: ${response.status}`);
  return (await response.json()) as ServerMetadata;
}

export async function registerClient(
  metadata: ServerMetadata,
  body: Record<string, unknown> = {},
): Promise<{ status: number; client_id?: string; json: Record<string, unknown> }> {
  const response = await fetch(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test agent',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...body,
    }),
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json, ...(typeof json['client_id'] === 'string' && { client_id: json['client_id'] }) };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface AuthorizeOptions {
  readonly clientId: string;
  readonly redirectUri?: string;
  readonly apiKey: string;
  /** Scopes asked for (space separated); default the four. */
  readonly scope?: string;
  /** Scopes ticked on the consent page; default all asked. */
  readonly grant?: readonly string[];
  readonly resource?: string;
  readonly codeChallenge?: string;
  readonly codeChallengeMethod?: string;
  readonly action?: 'allow' | 'deny';
}

export interface AuthorizeOutcome {
  /** The final redirect to the client (its query: code, state, iss; or error). */
  readonly callback?: URL;
  /** The response that ended the walk when it was not a redirect to the client (an error page, the consent page). */
  readonly stoppedAt?: { status: number; url: string; text: string };
  readonly verifier: string;
  readonly state: string;
}

/** Walks the authorization: /authorize → consent page → form post (API key, scopes) → redirect to the client. */
export async function authorize(metadata: ServerMetadata, options: AuthorizeOptions): Promise<AuthorizeOutcome> {
  const pkce = pkcePair();
  const state = randomBytes(8).toString('hex');
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:9/callback';
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: redirectUri,
    scope: options.scope ?? 'invoice:read invoice:issue invoice:cancel invoice:write',
    state,
    code_challenge: options.codeChallenge ?? pkce.challenge,
    code_challenge_method: options.codeChallengeMethod ?? 'S256',
    ...(options.resource !== undefined && { resource: options.resource }),
  }).toString();
  const jar = new CookieJar();
  let response = await fetch(url, { redirect: 'manual' });
  let current = url.toString();
  let posted = false;
  for (let hop = 0; hop < 10; hop++) {
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, current);
      if (next.toString().startsWith(redirectUri)) return { callback: next, verifier: pkce.verifier, state };
      current = next.toString();
      response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
      continue;
    }
    const text = await response.text();
    if (response.status !== 200 || posted || !current.includes('/interaction/')) {
      return { stoppedAt: { status: response.status, url: current, text }, verifier: pkce.verifier, state };
    }
    const form = new URLSearchParams({ api_key: options.apiKey, action: options.action ?? 'allow' });
    for (const scope of options.grant ?? (options.scope ?? 'invoice:read invoice:issue invoice:cancel invoice:write').split(' ')) {
      form.append('scope', scope);
    }
    posted = true;
    response = await fetch(current, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  }
  throw new Error('authorization: too many redirects');
}

export interface TokenAnswer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

async function tokenRequest(metadata: ServerMetadata, form: Record<string, string>): Promise<TokenAnswer> {
  const response = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

export function exchangeCode(
  metadata: ServerMetadata,
  options: { clientId: string; code: string; verifier: string; redirectUri?: string; resource?: string },
): Promise<TokenAnswer> {
  return tokenRequest(metadata, {
    grant_type: 'authorization_code',
    client_id: options.clientId,
    code: options.code,
    code_verifier: options.verifier,
    redirect_uri: options.redirectUri ?? 'http://127.0.0.1:9/callback',
    ...(options.resource !== undefined && { resource: options.resource }),
  });
}

export function refresh(metadata: ServerMetadata, options: { clientId: string; refreshToken: string }): Promise<TokenAnswer> {
  return tokenRequest(metadata, { grant_type: 'refresh_token', client_id: options.clientId, refresh_token: options.refreshToken });
}

export async function revoke(metadata: ServerMetadata, options: { clientId: string; token: string }): Promise<number> {
  const response = await fetch(metadata.revocation_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: options.clientId, token: options.token }).toString(),
  });
  return response.status;
}

/** Registration, authorization with the API key and the code exchange in one go: a token pair for `scope`. */
export async function obtainTokens(
  issuer: string,
  options: { apiKey: string; scope?: string; grant?: readonly string[] },
): Promise<{ metadata: ServerMetadata; clientId: string; accessToken: string; refreshToken: string; scope: string }> {
  const metadata = await discover(issuer);
  const { client_id: clientId, json } = await registerClient(metadata);
  if (!clientId) throw new Error(`registration failed: ${JSON.stringify(json)}`);
  const outcome = await authorize(metadata, { clientId, ...options });
  const code = outcome.callback?.searchParams.get('code');
  if (!code) throw new Error(`authorization failed: ${outcome.callback?.toString() ?? JSON.stringify(outcome.stoppedAt)}`);
  const token = await exchangeCode(metadata, { clientId, code, verifier: outcome.verifier });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.json)}`);
  return {
    metadata,
    clientId,
    accessToken: String(token.json['access_token']),
    refreshToken: String(token.json['refresh_token']),
    scope: String(token.json['scope']),
  };
}
