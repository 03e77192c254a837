// What a route that takes an Idempotency-Key answers for: the caller behind the API key, the request (a fresh error
// carries its id) and the key as sent, absent when not (run-idempotently.ts has the rules).
import { createParamDecorator, HttpException, type ExecutionContext } from '@nestjs/common';
import type { Caller, GatewayRequest } from '../http/gateway-request.js';

export interface IdempotentRequest {
  readonly caller: Caller;
  readonly req: GatewayRequest;
  readonly key: string | undefined;
}

/** Only on routes behind ApiKeyGuard, as CurrentCaller. */
export const IdempotentRequest = createParamDecorator((_data: unknown, context: ExecutionContext): IdempotentRequest => {
  const req = context.switchToHttp().getRequest<GatewayRequest>();
  if (!req.authentication?.ok) throw new HttpException({ detail: 'Missing API key' }, 401);
  // Node joins a header sent twice into one value ("a, b"): never an array for this name.
  return { caller: req.authentication.caller, req, key: req.headers['idempotency-key'] as string | undefined };
});
