// `node --import @talao/observability/instrument apps/<name>/dist/main.js`: the first module of every app. It reads
// the tracing variables (OTEL_*, validated by @talao/config like any other) and starts tracing when they ask for it;
// otherwise it returns having imported nothing of OpenTelemetry. A bad variable stops the boot with exit 78, as the
// app itself would.
import { ConfigError, loadConfig, tracingConfig } from '@talao/config';
import { startTracing } from '../tracing.js';

let settings;
try {
  ({ tracing: settings } = loadConfig({ tracing: tracingConfig }));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78);
}
await startTracing(settings);
