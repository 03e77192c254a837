export {
  ConfigError,
  describeConfig,
  loadAdminCliConfig,
  loadGatewayConfig,
  type AdminCliConfig,
  type ApiVersionDeprecation,
  type Environment,
  type GatewayConfig,
} from './load-config.js';
