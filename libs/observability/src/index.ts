export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { createHttpLogger } from './http-logging.js';
export { REQUEST_ID_HEADER, resolveRequestId } from './request-id.js';
export { REDACT_PATHS, REDACTED } from './redaction.js';
export { NestPinoLogger } from './nest-logger.js';
