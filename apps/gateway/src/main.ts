import { ConfigError, describeConfig, loadGatewayConfig } from '@talao/config';
import { createLogger } from '@talao/observability';
import { createGatewayApp } from './gateway-app.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadGatewayConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG: supervisors should not restart in a loop on a configuration error
    }
    throw error;
  }
  const logger = createLogger({ name: 'gateway', level: config.logLevel });
  let app;
  try {
    ({ app } = await createGatewayApp(config, logger));
  } catch (error) {
    // A setting only checkable once read (CERTIFICATE_TRUST_BUNDLE_FILE's contents): same exit as a bad variable.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  // enableShutdownHooks: SIGTERM/SIGINT/SIGHUP close the HTTP server (in-flight requests finish), then Redis and PostgreSQL.
  await app.listen(config.port, config.host);
  logger.info({ config: describeConfig(config), url: await app.getUrl() }, 'gateway listening');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
