// @talao/config: each app's environment, validated at boot. Apps compose fragments (one per concern, each variable
// with one default) with loadConfig; a bad environment is a ConfigError naming every bad variable at once.
export {
  ConfigError,
  type ConfigFragments,
  type ConfigOf,
  describeConfig,
  loadAdminCliConfig,
  loadConfig,
  loadGatewayConfig,
  type AdminCliConfig,
  type ApiVersionDeprecation,
  type Environment,
  type GatewayConfig,
} from './load-config.js';
export * from './fragments.js';
export { workerAppConfigLoader } from './worker-app-config.js';
/** For an app's own fragment: an integer variable with its default (`integer(10_000, 0)`: ≥ 0, 10 s when unset). */
export { integer } from './environment-values.js';
