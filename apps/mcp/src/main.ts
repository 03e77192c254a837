// The MCP app: config check, the HTTP entry, graceful shutdown. Exit 78 (EX_CONFIG) on a bad environment.
import { ConfigError } from '@talao/config';
import { collectProcessMetrics, createLogger } from '@talao/observability';
import { loadMcpConfig, type McpConfig } from './config.js';
import { createMcpHttpServer } from './mcp-http.js';

let config: McpConfig;
try {
  config = loadMcpConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`mcp: ${error.message}\n`);
  process.exit(78);
}

const logger = createLogger({ name: 'mcp', level: config.logging.level });
collectProcessMetrics();
const server = createMcpHttpServer({
  gatewayUrl: config.mcp.gatewayUrl,
  logger,
  // Its public name, and the loopback names of its port (local runs and probes).
  allowedHosts: [
    new URL(config.mcp.publicUrl).host,
    `127.0.0.1:${config.mcp.port}`,
    `localhost:${config.mcp.port}`,
    `[::1]:${config.mcp.port}`,
  ],
  auth: { publicUrl: config.mcp.publicUrl, ...(config.mcp.oauthIssuer && { oauthIssuer: config.mcp.oauthIssuer }) },
});
server.listen(config.mcp.port, config.mcp.host, () => {
  logger.info(
    {
      port: config.mcp.port,
      host: config.mcp.host,
      gateway: config.mcp.gatewayUrl,
      resource: config.mcp.publicUrl,
      oauth: config.mcp.oauthIssuer ?? null,
    },
    'mcp ready at /mcp',
  );
});

function shutdown(signal: string): void {
  logger.info({ signal }, 'shutting down');
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
