// The MCP app's environment, validated at boot: where it listens, where the REST API is, the log level. Nothing for
// PostgreSQL, Redis or an API key: the app reaches the platform only through the REST API, with the caller's credential.
import { type Environment, loadConfig, loggingConfig, mcpServerConfig } from '@talao/config';

export function loadMcpConfig(env: Environment = process.env) {
  return loadConfig({ mcp: mcpServerConfig, logging: loggingConfig }, env);
}

export type McpConfig = ReturnType<typeof loadMcpConfig>;
