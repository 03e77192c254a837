import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { GatewayRequest } from '../http/gateway-request.js';
import { ADMIN_TOKEN } from '../gateway-tokens.js';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether `token` is the admin token whose digest is `expected`. Both sides are hashed first so the comparison is
 * constant-time whatever the lengths (timingSafeEqual alone throws on a length mismatch, which would leak the token's
 * length). Shared by the guard and the queue dashboard (queues/queue-dashboard.ts).
 */
export function isAdminToken(expected: Buffer, token: string): boolean {
  return timingSafeEqual(digest(token), expected);
}

export const adminTokenDigest = digest;

/** `Authorization: Bearer $ADMIN_TOKEN` (isAdminToken). */
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
    if (!isAdminToken(this.expected, token)) throw new HttpException({ detail: 'Invalid admin token' }, 401);
    return true;
  }
}
