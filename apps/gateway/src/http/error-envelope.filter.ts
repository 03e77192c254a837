import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { CompanyAdminError } from '@talao/company-admin';
import type { Logger } from '@talao/observability';
import { isDatabaseBusy } from '@talao/persistence';
import { sendError } from './error-envelope.js';
import { requestIdOf, type GatewayRequest, type GatewayResponse } from './gateway-request.js';

const ADMIN_STATUS = { validation: 422, conflict: 409, not_found: 404 } as const;
/** What an overloaded database answers: nothing was done, the same request may be sent again after this long. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** The gateway's own phrases for errors raised by the framework or the libraries under it, whose words never go out. */
const GENERIC: Record<number, string> = {
  400: 'Bad request',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'The request body is too large',
  415: 'Unsupported media type',
  500: 'Internal server error',
};

/** An error from Express, its router or body reading carries its status as `status`/`statusCode` (http-errors). */
function clientStatusOf(exception: unknown): number | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const status = (exception as { status?: unknown; statusCode?: unknown }).statusCode ?? (exception as { status?: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : null;
}

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
    if (isDatabaseBusy(exception)) {
      // Overload, not a fault: every database connection stayed busy for the whole wait. The client retries.
      this.logger.warn({ request_id: requestIdOf(req), err: exception }, 'database busy: answered 503');
      res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      sendError(req, res, 503, 'The service is busy; send the request again after Retry-After seconds');
      return;
    }
    const { status, detail, extras } = this.describe(exception);
    if (status >= 500 && !(exception instanceof HttpException)) {
      this.logger.error({ request_id: requestIdOf(req), err: exception }, 'request failed');
    }
    sendError(req, res, status, detail, extras);
  }

  private describe(exception: unknown): { status: number; detail: string | object; extras?: Record<string, unknown> } {
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
      // Nest's own exceptions (route not found, …) and the framework errors it wraps ("Failed to decode param …"):
      // a fixed phrase, never the framework's wording. This gateway always throws `{ detail }`.
      return { status, detail: GENERIC[status] ?? GENERIC[400]! };
    }
    const clientStatus = clientStatusOf(exception);
    if (clientStatus !== null) return { status: clientStatus, detail: GENERIC[clientStatus] ?? GENERIC[400]! };
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, detail: GENERIC[500]! };
  }
}
