// Attempts in flight per endpoint in this dispatcher: an endpoint that hangs until the timeout holds at most `max` of
// the worker's slots, so deliveries to every other endpoint keep flowing; its further attempts are put off briefly.
export class EndpointLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly max: number) {}

  tryAcquire(endpointId: string): boolean {
    const count = this.inFlight.get(endpointId) ?? 0;
    if (count >= this.max) return false;
    this.inFlight.set(endpointId, count + 1);
    return true;
  }

  release(endpointId: string): void {
    const count = (this.inFlight.get(endpointId) ?? 1) - 1;
    if (count <= 0) this.inFlight.delete(endpointId);
    else this.inFlight.set(endpointId, count);
  }
}
