import { workerAppFragments } from './fragments.js';
import { type ConfigFragments, type Environment, loadConfig } from './load-config.js';

/**
 * A worker app's config loader: what every worker reads (workerAppFragments, the tuning variables named after
 * `prefix`, with these defaults) plus the app's own fragments. The loader throws one ConfigError naming every bad
 * variable.
 */
export function workerAppConfigLoader<F extends ConfigFragments>(
  prefix: string,
  defaults: { concurrency: number; healthPort: number },
  fragments: F,
) {
  return (env: Environment = process.env) => loadConfig({ ...workerAppFragments(prefix, defaults), ...fragments }, env);
}
