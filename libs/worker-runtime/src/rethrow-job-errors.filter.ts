import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';

/**
 * Nest's default RPC filter turns any error into `{ status: 'error', message: 'Internal server error' }` and logs it:
 * BullMQ must instead see the handler's own error (a RetryLaterError schedules a retry; the transport logs failures).
 */
@Catch()
export class RethrowJobErrors implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
