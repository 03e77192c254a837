// The authorization page (login and consent in one step): the person enters an API key of the company and
// environment the agent will act for (SPEC.md: the key resolves both; there is no user account), sees the requested
// scopes in plain words and may untick some. Every authorization asks for the key again: a browser session at this
// server grants nothing by itself. The key is checked, never stored or logged; the grant records its id only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { SCOPE_DESCRIPTIONS, SCOPES, isScope, type Scope } from '@talao/access-tokens';
import type { AccountKeys, ProvenApiKey } from './accounts.js';
import { accountIdOf } from './accounts.js';
import { escapeHtml, type AuthorizationServer } from './authorization-server.js';

const MAX_FORM_BYTES = 16 * 1024;

export class FormError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The scopes a key may delegate. API keys carry no scopes of their own (SPEC.md Authentication 2: a key of context
 * `api` may call every operation), so such a key bounds nothing below the four; an `sdk` key or a revoked one cannot
 * delegate the REST API at all. Narrower keys would narrow here.
 */
export function grantableScopes(key: ProvenApiKey): readonly Scope[] {
  return key.context === 'api' && !key.revokedAt ? SCOPES : [];
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new FormError(415, 'Send the form as application/x-www-form-urlencoded');
  const raw = await getRawBody(req, { limit: MAX_FORM_BYTES }).catch((error: { status?: number }) => {
    throw error.status === 413 ? new FormError(413, 'The form is too large') : new FormError(400, 'The form could not be read');
  });
  return new URLSearchParams(raw.toString('utf8'));
}

interface PageModel {
  readonly uid: string;
  readonly clientName: string;
  readonly redirectUri: string;
  readonly resource: string;
  readonly requested: readonly Scope[];
  readonly error?: string;
}

function page(model: PageModel): string {
  const scopes = model.requested
    .map(
      (scope) =>
        `<li><label><input type="checkbox" name="scope" value="${scope}" checked> <code>${scope}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[scope])}</label></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Authorize ${escapeHtml(model.clientName)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}.error{color:#a00}li{margin:.4rem 0}</style></head>
<body>
<h1>Authorize ${escapeHtml(model.clientName)}</h1>
<p><strong>${escapeHtml(model.clientName)}</strong> (returning to <code>${escapeHtml(model.redirectUri)}</code>) asks to act on
Talão invoices through <code>${escapeHtml(model.resource)}</code>.</p>
${model.error ? `<p class="error" role="alert">${escapeHtml(model.error)}</p>` : ''}
<form method="post" action="./${encodeURIComponent(model.uid)}" autocomplete="off">
<p><label>API key of the company and environment it will act for (context <code>api</code>)<br>
<input type="password" name="api_key" size="60" required></label></p>
<p>It may, once you allow it (untick what you do not want to grant):</p>
<ul>
${scopes}
</ul>
<p><button type="submit" name="action" value="allow">Allow</button> <button type="submit" name="action" value="deny" formnovalidate>Deny</button></p>
</form>
</body></html>`;
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    // No form-action: browsers apply it to the redirects after the post too, and the last one goes to the client.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  });
  res.end(body);
}

/** GET and POST {mount}/interaction/{uid}. Errors of the provider (an unknown or expired interaction) are 400s. */
export async function handleInteraction(
  server: AuthorizationServer,
  accounts: AccountKeys,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<void> {
  const { provider } = server;
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new FormError(400, 'This authorization request belongs to another page');
  const params = details.params as Record<string, string | undefined>;
  const client = await provider.Client.find(String(params['client_id']));
  if (!client) throw new FormError(400, 'Unknown client');
  const asked = (params['scope'] ?? '').split(' ').filter(isScope);
  const requested = asked.length > 0 ? asked : [...SCOPES];
  const model: PageModel = {
    uid,
    clientName: client.clientName ?? client.clientId,
    redirectUri: String(params['redirect_uri'] ?? ''),
    resource: server.resource,
    requested,
  };
  if (req.method === 'GET') return html(res, 200, page(model));
  if (req.method !== 'POST') throw new FormError(405, 'Use GET or POST');

  const form = await readForm(req);
  if (form.get('action') === 'deny') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The person refused the authorization' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const keyText = (form.get('api_key') ?? '').trim();
  const key = keyText ? await accounts.resolveKeyText(keyText) : null;
  if (!key) return html(res, 400, page({ ...model, error: 'Unknown, malformed or revoked API key' }));
  const grantable = grantableScopes(key);
  if (grantable.length === 0) {
    return html(res, 400, page({ ...model, error: 'This API key cannot delegate access: it needs context "api" and must not be revoked' }));
  }
  const chosen = form.getAll('scope').filter(isScope);
  const granted = requested.filter((scope) => chosen.includes(scope) && grantable.includes(scope));
  if (granted.length === 0) return html(res, 400, page({ ...model, error: 'Choose at least one permission to grant, or deny' }));

  const accountId = accountIdOf({ companyId: key.companyId, apiKeyId: key.id });
  const grant = new provider.Grant({ accountId, clientId: client.clientId });
  grant.addResourceScope(server.resource, granted.join(' '));
  const oidcScopes = (params['scope'] ?? '').split(' ').filter((scope) => scope === 'openid' || scope === 'offline_access');
  // The resource scopes are provider scopes as well (authorization-server.ts): granted as such, or the provider asks again.
  grant.addOIDCScope([...oidcScopes, ...granted].join(' '));
  const grantId = await grant.save();
  // Granting fewer scopes than asked: the request continues as if it had asked for what was granted, so the provider
  // does not ask for consent again for the unticked ones (and the token's `scope` says what it may do).
  details.params['scope'] = [...oidcScopes, ...granted].join(' ');
  await details.save(details.exp - Math.floor(Date.now() / 1000));
  await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
}
