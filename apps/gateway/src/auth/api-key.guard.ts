import { createParamDecorator, HttpException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Caller, GatewayRequest } from '../http/gateway-request.js';

/** Lets a request through only when the authentication middleware accepted its API key; else 401 with the reason. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const authentication = context.switchToHttp().getRequest<GatewayRequest>().authentication;
    if (!authentication) throw new HttpException({ detail: 'Missing API key' }, 401);
    if (!authentication.ok) {
      if (authentication.failure !== undefined) throw authentication.failure;
      throw new HttpException({ detail: authentication.detail }, 401);
    }
    return true;
  }
}

/** The company and key behind the request (only on routes behind ApiKeyGuard). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const authentication = context.switchToHttp().getRequest<GatewayRequest>().authentication;
  if (!authentication?.ok) throw new HttpException({ detail: 'Missing API key' }, 401);
  return authentication.caller;
});
