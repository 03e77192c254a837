import { formatFiscalDateTime } from '@talao/fiscal-xml';

/** The simulator's notion of "now": real time plus an offset set by the control API (to test windows and deadlines). */
export class SimClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  setOffset(offsetMs: number): void {
    if (!Number.isFinite(offsetMs)) throw new Error('offsetMs must be a finite number');
    this.offsetMs = Math.trunc(offsetMs);
  }

  offset(): number {
    return this.offsetMs;
  }

  /** TDateTimeUTC as the authorizers answer it (Brasília time). */
  stamp(at: Date = this.now()): string {
    return formatFiscalDateTime(at, '-03:00');
  }
}
