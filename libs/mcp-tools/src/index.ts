// Public API of @talao/mcp-tools: the MCP server factory (12 tools, 8 prompts) over the gateway's REST API.
export { createMcpServer, type McpServerOptions } from './create-mcp-server.js';
export { GatewayClient } from './api-client.js';
export { MANIFESTATIONS } from './tools/manifest-received-invoice.js';
