import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { CompanyAdminError } from '@talao/company-admin';
import type { Logger } from '@talao/observability';
import { sendError, type ErrorExtras } from './error-envelope.js';
import { requestIdOf, type GatewayRequest, type GatewayResponse } from './gateway-request.js';

const ADMIN_STATUS = { validation: 422, conflict: 409, not_found: 404 } as const;

/** Short phrases for statuses whose framework message would say more than a client needs. */
const GENERIC: Record<number, string> = { 404: 'Not found', 405: 'Method not allowed', 500: 'Internal server error' };

/**
 * The one place exceptions become responses: `{ detail, request_id }`. Anything that is not a deliberate HTTP or
 * use-case error is a 500 with a generic sentence; its stack goes to the log (with the request id), never out.
 * (The HTTP logger also logs every 5xx response line with its request id.)
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<GatewayRequest>();
    const res = http.getResponse<GatewayResponse>();
    const { status, detail, extras } = this.describe(exception);
    if (status >= 500 && !(exception instanceof HttpException)) {
      this.logger.error({ request_id: requestIdOf(req), err: exception }, 'request failed');
    }
    sendError(req, res, status, detail, extras);
  }

  private describe(exception: unknown): { status: number; detail: string | object; extras?: ErrorExtras } {
    if (exception instanceof CompanyAdminError) {
      const status = ADMIN_STATUS[exception.kind];
      const detail = exception.problems.length > 0 ? { message: exception.message, errors: exception.problems } : exception.message;
      return { status, detail };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      // `{ detail }` is how this gateway throws on purpose (503 from readiness included); pass it on as written.
      // With `errors` (the field errors of a 422) beside it when there are some.
      if (typeof response === 'object' && response !== null && 'detail' in response) {
        const { detail, errors } = response as { detail: string | object; errors?: unknown };
        return { status, detail, ...(Array.isArray(errors) ? { extras: { errors: errors as object[] } } : {}) };
      }
      if (status >= 500) return { status, detail: GENERIC[500]! };
      if (typeof response === 'string') return { status, detail: response };
      // Nest's own exceptions (route not found, …): a fixed phrase, not the framework's wording.
      return { status, detail: GENERIC[status] ?? exception.message };
    }
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, detail: GENERIC[500]! };
  }
}
