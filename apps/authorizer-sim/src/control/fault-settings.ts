/**
 * Misbehaviour injected through the control API, per authorizer (`SP`, `SVRS`, `SVC-AN`, `AN`, `SEFIN`, `ADN`, …)
 * or for all (`*`).
 */
export interface FaultSettings {
  /** Added before answering. */
  latencyMs?: number;
  /** Refuse at the HTTP level with 503 (the service is down: contingency). */
  outage?: boolean;
  /** Answer status-service calls with 108 (paused). */
  paused?: boolean;
  /** Never answer (the client's read timeout fires after sending). */
  hang?: boolean;
  /** Process the request (state changes, protocol issued) and then drop the connection: the lost-response case. */
  dropResponses?: number;
  /**
   * Like dropResponses, but a probability (0..1) applied to every answer while set: the steady "1 answer in 10 is
   * lost" of a chaos run, which a count would have to re-arm between requests.
   */
  dropRate?: number;
  /** Reject the next authorizations with this cStat (its official text). */
  forceRejection?: { code: string; remaining: number };
  /** Answer the next authorizations asynchronously (103 + receipt) instead of synchronously. */
  asyncAnswers?: number;
}

export class FaultBook {
  private readonly byAuthorizer = new Map<string, FaultSettings>();
  /** Answers lost on purpose since the start (or the last reset), by either fault: a test proves drops happened. */
  dropped = 0;

  set(authorizer: string, settings: FaultSettings): void {
    this.byAuthorizer.set(authorizer, { ...settings });
  }

  clear(): void {
    this.byAuthorizer.clear();
  }

  /** Settings for one authorizer, falling back to `*`. */
  for(authorizer: string): FaultSettings {
    return this.byAuthorizer.get(authorizer) ?? this.byAuthorizer.get('*') ?? {};
  }

  /** Consumes one unit of a counted fault (drop, forced rejection, async) and says whether it applied. */
  take(authorizer: string, kind: 'dropResponses' | 'asyncAnswers'): boolean {
    const settings = this.byAuthorizer.get(authorizer) ?? this.byAuthorizer.get('*');
    const left = settings?.[kind] ?? 0;
    if (!settings || left <= 0) return false;
    settings[kind] = left - 1;
    if (kind === 'dropResponses') this.dropped += 1;
    return true;
  }

  /** Whether this answer is lost by the authorizer's dropRate (a fresh draw per answer). */
  dropsByRate(authorizer: string, draw: () => number = Math.random): boolean {
    const rate = this.for(authorizer).dropRate ?? 0;
    const drops = rate > 0 && draw() < rate;
    if (drops) this.dropped += 1;
    return drops;
  }

  takeRejection(authorizer: string): string | undefined {
    const settings = this.byAuthorizer.get(authorizer) ?? this.byAuthorizer.get('*');
    const forced = settings?.forceRejection;
    if (!forced || forced.remaining <= 0) return undefined;
    forced.remaining -= 1;
    return forced.code;
  }

  snapshot(): Record<string, FaultSettings> {
    return Object.fromEntries(this.byAuthorizer);
  }
}
