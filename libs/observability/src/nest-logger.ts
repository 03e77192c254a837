import type { LoggerService } from '@nestjs/common';
import type { Logger } from './logger.js';

/** Nest's own messages (bootstrap, route mapping, errors) as JSON lines through the same pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: 'info' | 'warn' | 'error' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]): void {
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? params[params.length - 1] : undefined;
    this.logger[level]({ context }, typeof message === 'string' ? message : JSON.stringify(message));
  }

  log(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params); // route mapping and module init are noise at info level
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }
}
