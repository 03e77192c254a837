export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { createHttpLogger } from './http-logging.js';
export { REQUEST_ID_HEADER, resolveRequestId } from './request-id.js';
export { REDACT_PATHS, REDACTED } from './redaction.js';
export { NestPinoLogger } from './nest-logger.js';
export * from './metrics.js';
export { httpMetricsMiddleware, observeHttpRequest, observeResponse } from './http-metrics.js';
export { DEPTH_STATES, queueJobs, type QueueDepthSource, watchQueueDepth } from './queue-depth.js';
export {
  currentTraceParent,
  inSpan,
  queueTelemetry,
  withTraceParent,
  serviceNameOf,
  startTracing,
  type TracingSettings,
} from './tracing.js';
