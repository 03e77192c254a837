// The authorization server as one node:http middleware, mounted by the gateway before its JSON body parser (the
// provider reads its own form bodies): {mount}/interaction/{uid} is the consent page, everything else under {mount}
// is oidc-provider's (authorize, token, register, revoke, jwks, metadata), and RFC 8414's path-inserted metadata
// address /.well-known/oauth-authorization-server{mount} answers the provider's metadata document.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountKeys } from './accounts.js';
import type { AuthorizationServer } from './authorization-server.js';
import { FormError, handleInteraction } from './consent-page.js';

type Next = (error?: unknown) => void;

export interface AuthorizationHandlerOptions {
  /** Told about unexpected failures (never the request body: it may hold an API key). */
  readonly onError?: (error: unknown) => void;
}

const INTERACTION = /^\/interaction\/([A-Za-z0-9_-]{1,64})$/;

export function authorizationHttpHandler(server: AuthorizationServer, accounts: AccountKeys, options: AuthorizationHandlerOptions = {}) {
  const callback = server.provider.callback();
  const metadataAlias = `/.well-known/oauth-authorization-server${server.mountPath}`;
  return (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === metadataAlias) {
      req.url = '/.well-known/oauth-authorization-server';
      // The provider derives its endpoint URLs from the mount path it sees (express's baseUrl when nothing else).
      (req as IncomingMessage & { baseUrl?: string }).baseUrl = server.mountPath;
      void callback(req, res);
      return;
    }
    if (path !== server.mountPath && !path.startsWith(`${server.mountPath}/`)) return next();
    const rest = path.slice(server.mountPath.length) || '/';
    const interaction = INTERACTION.exec(rest);
    if (interaction) {
      handleInteraction(server, accounts, req, res, interaction[1]!).catch((error: unknown) => {
        if (res.headersSent) return;
        const status = error instanceof FormError ? error.status : providerStatus(error);
        if (status >= 500) options.onError?.(error);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ error: status >= 500 ? 'server_error' : 'invalid_request', error_description: describe(error, status) }));
      });
      return;
    }
    req.url = `${rest}${(req.url ?? '').slice(path.length)}`;
    void callback(req, res);
  };
}

/** oidc-provider's errors carry their HTTP status (SessionNotFound 400, InvalidRequest 400, ...). */
function providerStatus(error: unknown): number {
  const status = (error as { statusCode?: unknown; status?: unknown }).statusCode ?? (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

function describe(error: unknown, status: number): string {
  if (status >= 500) return 'The authorization server failed; try again';
  if (error instanceof FormError) return error.message;
  const provider = error as { error_description?: unknown; message?: unknown };
  return String(provider.error_description ?? provider.message ?? 'invalid request');
}
