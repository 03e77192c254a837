import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Logger } from '@talao/observability';
import { effectiveLimits, WINDOW_SECONDS, type OperationName } from './operations.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds when the current window ends. */
  readonly resetAt: number;
  /** Seconds to wait when refused. */
  readonly retryAfter: number;
}

/**
 * Fixed one-minute windows counted in Redis by rate-limiter-flexible (one Lua script per request, so concurrent
 * gateway replicas share the count atomically). Each operation has its own counter per caller, so one key never
 * spends another's allowance and one operation never spends another's.
 *
 * Redis down: the request is let through (fail open) and the failure logged, at most once per 10 s. The API's
 * availability matters more than a minute of unmetered traffic; PostgreSQL stays the guard of anything that
 * costs money (quota, idempotency, numbering).
 */
export class RateLimiter {
  private readonly limiters = new Map<OperationName, RateLimiterRedis>();
  private readonly limits: Record<OperationName, number>;
  private lastFailureLog = 0;

  constructor(
    redis: Redis,
    keyPrefix: string,
    overrides: Readonly<Record<string, number>>,
    private readonly logger: Logger,
  ) {
    this.limits = effectiveLimits(overrides);
    for (const [operation, points] of Object.entries(this.limits) as [OperationName, number][]) {
      this.limiters.set(
        operation,
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${keyPrefix}ratelimit:${operation}`,
          points,
          duration: WINDOW_SECONDS,
          // Refuse at once while Redis is (re)connecting instead of queueing behind it; we then fail open.
          rejectIfRedisNotReady: true,
        }),
      );
    }
  }

  limitOf(operation: OperationName): number {
    return this.limits[operation];
  }

  async consume(operation: OperationName, caller: string): Promise<RateLimitDecision> {
    const limit = this.limits[operation];
    const limiter = this.limiters.get(operation)!;
    try {
      const res = await limiter.consume(caller, 1);
      return this.decision(true, limit, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(false, limit, rejection);
      this.logFailure(rejection, operation);
      // Fail open: answer as if this were the first request of a fresh window.
      return { allowed: true, limit, remaining: limit - 1, resetAt: Math.ceil(Date.now() / 1000) + WINDOW_SECONDS, retryAfter: 0 };
    }
  }

  private decision(allowed: boolean, limit: number, res: RateLimiterRes): RateLimitDecision {
    const msBeforeNext = Math.max(0, res.msBeforeNext);
    return {
      allowed,
      limit,
      remaining: Math.max(0, res.remainingPoints),
      resetAt: Math.ceil((Date.now() + msBeforeNext) / 1000),
      retryAfter: Math.max(1, Math.ceil(msBeforeNext / 1000)),
    };
  }

  private logFailure(error: unknown, operation: OperationName): void {
    const now = Date.now();
    if (now - this.lastFailureLog < 10_000) return;
    this.lastFailureLog = now;
    this.logger.warn(
      { operation, error: error instanceof Error ? error.message : String(error) },
      'rate limiting unavailable (Redis unreachable); requests are let through',
    );
  }
}
