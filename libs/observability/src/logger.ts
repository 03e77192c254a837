import { pino, type DestinationStream, type Logger } from 'pino';
import { REDACT_PATHS, REDACTED } from './redaction.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** The program writing the log ("gateway", "admin-cli"); added to every line. */
  readonly name: string;
  readonly level?: string;
  /** Defaults to stdout; tests pass a stream to read the lines back. */
  readonly destination?: DestinationStream;
}

/** JSON lines on stdout, ISO timestamps, secrets redacted by field name wherever they appear. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
