import type { IncomingMessage, ServerResponse } from 'node:http';

/** The company and key behind a valid API key, attached by the authentication middleware. */
export interface Caller {
  readonly apiKeyId: string;
  readonly apiKeyName: string;
  readonly apiKeyPrefix: string;
  readonly environment: 'homologation' | 'production';
  readonly company: { readonly id: string; readonly taxId: string; readonly legalName: string; readonly tradeName: string | null };
  /** Present when the credential is an OAuth access token (MCP): its client and the scopes it was granted. */
  readonly oauth?: { readonly clientId: string; readonly scopes: ReadonlySet<string> };
}

export type Authentication =
  | { readonly ok: true; readonly caller: Caller }
  /** `failure`: the lookup itself failed (database down); the guard rethrows it as a 500 after rate limiting ran. */
  | { readonly ok: false; readonly detail: string; readonly failure?: unknown };

/** Express's request as this gateway uses it (Express adds `originalUrl`, `ip`; the HTTP logger sets `id`). */
export interface GatewayRequest extends IncomingMessage {
  id?: string;
  originalUrl?: string;
  ip?: string;
  body?: unknown;
  authentication?: Authentication;
}

export type GatewayResponse = ServerResponse;
export type Next = (error?: unknown) => void;

/** The request path without the query string. */
export function pathOf(req: GatewayRequest): string {
  return (req.originalUrl ?? req.url ?? '/').split('?')[0] ?? '/';
}

export function requestIdOf(req: GatewayRequest): string {
  return typeof req.id === 'string' ? req.id : String(req.id ?? '');
}

export const API_PREFIX = '/api/v1';
export const ADMIN_PREFIX = '/admin/v1';

/** Route families, compared exactly as the router (case-sensitive) compares them. */
export const isApiPath = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
export const isAdminPath = (path: string): boolean => path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);
/** Probes: never limited, never authenticated. */
export const isHealthPath = (path: string): boolean => path === '/healthz' || path === '/readyz';
