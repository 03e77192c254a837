// One MCP server per HTTP request (stateless streamable HTTP): its tools hold that request's credential only, so no
// credential outlives the request or reaches another caller.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GatewayClient } from './api-client.js';
import { registerPrompts } from './prompts/prompts.js';
import { TOOL_REGISTRATIONS } from './tools/index.js';

export interface McpServerOptions {
  /** The gateway's base URL (its REST API under /api/v1). */
  readonly gatewayUrl: string;
  /** The request's `Authorization` header value, passed to the API as is (or a function reading the current request's). */
  readonly authorization: string | (() => string);
  readonly version?: string;
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'talao', title: 'Talão: NF-e and NFS-e', version: options.version ?? '0.1.0' },
    {
      instructions:
        'Issue, consult, cancel and correct Brazilian NF-e and NFS-e for the company of the API key. Read back (validate, consult ' +
        'or list) and show the person before any tool that changes a document, and ask for confirmation before cancelling.',
    },
  );
  const context = { api: new GatewayClient(options.gatewayUrl, options.authorization) };
  for (const register of TOOL_REGISTRATIONS) register(server, context);
  registerPrompts(server);
  return server;
}
