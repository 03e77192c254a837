import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { GatewayRequest } from '../http/gateway-request.js';
import { ADMIN_TOKEN } from '../gateway-tokens.js';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * `Authorization: Bearer $ADMIN_TOKEN`. Both sides are hashed first so the comparison is constant-time whatever
 * the lengths (timingSafeEqual alone throws on a length mismatch, which would leak the token's length).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(ADMIN_TOKEN) adminToken: string) {
    this.expected = digest(adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<GatewayRequest>().headers.authorization ?? '';
    const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
    if (!token) throw new HttpException({ detail: 'Missing admin token: send Authorization: Bearer <ADMIN_TOKEN>' }, 401);
    if (!timingSafeEqual(digest(token), this.expected)) throw new HttpException({ detail: 'Invalid admin token' }, 401);
    return true;
  }
}
