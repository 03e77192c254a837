import { Controller, Get, HttpException, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { GatewayConfig } from '@talao/config';
import { GatewayResources } from '../gateway-resources.js';
import { GATEWAY_CONFIG } from '../gateway-tokens.js';

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Kubernetes probes: liveness never touches a dependency (a database outage must not restart every pod). */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly resources: GatewayResources,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('healthz')
  alive() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready() {
    const ms = this.config.readinessTimeoutMs;
    const [postgres, redis] = await Promise.allSettled([
      withTimeout(this.resources.prisma.$queryRaw`SELECT 1`, ms),
      withTimeout(this.resources.pingRedis(ms), ms),
    ]);
    const checks = {
      postgres: postgres.status === 'fulfilled' ? 'ok' : 'unavailable',
      redis: redis.status === 'fulfilled' ? 'ok' : 'unavailable',
    };
    const failed = Object.entries(checks)
      .filter(([, state]) => state !== 'ok')
      .map(([name]) => name);
    if (failed.length > 0) throw new HttpException({ detail: { message: `Not ready: ${failed.join(', ')} unavailable`, checks } }, 503);
    return { status: 'ready', checks };
  }
}
