// The MCP app as a real process beside a running platform (e2e/issuance/support/platform.ts), started by the one
// launcher with its app-table environment, and an MCP client (the SDK's) over streamable HTTP with an API key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildProjects, withBuildLock } from '../support/app-process.js';
import { type AppProcess, freePort, startApp } from '../issuance/support/app-processes.js';
import type { Platform } from '../issuance/support/platform.js';

export interface RunningMcp {
  readonly url: string;
  readonly process: AppProcess;
}

/** `port` and `env`: for an OAuth run, where the gateway must know the MCP URL before the MCP app starts. */
export async function startMcp(platform: Platform, options: { port?: number; env?: Record<string, string> } = {}): Promise<RunningMcp> {
  const port = options.port ?? (await freePort());
  const context = {
    logLevel: process.env.E2E_LOG_LEVEL ?? 'warn',
    ports: { mcp: { http: port }, gateway: { http: Number(new URL(platform.gatewayUrl).port) } },
  };
  const app = await withBuildLock(() => {
    buildProjects(['@talao/mcp']);
    return startApp('mcp', context, options.env);
  });
  return { url: `http://127.0.0.1:${port}/mcp`, process: app };
}

/** An MCP client session on `url` sending `Authorization: Bearer <key>` (an API key or an access token) on every request. */
export async function connectClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'talao-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return client;
}

/** tools/list sent to the MCP app at `url` with no Authorization header: the app answers 401 before any MCP handling. */
/** tools/list over plain HTTP, with the Authorization header given (none by default). */
export function listToolsWithoutCredentials(url: string, authorization?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization && { authorization }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}
