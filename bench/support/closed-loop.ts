// A closed-loop load: `clients` loops, each starting its next call when its last one ended, until `ms` have passed.
// The figure is calls completed per second of the whole run, the calls in flight at the deadline included (each
// loop finishes the call it started).

export interface ClosedLoopResult {
  readonly perSecond: number;
  readonly done: number;
}

export async function closedLoop(call: () => Promise<unknown>, clients: number, ms: number): Promise<ClosedLoopResult> {
  let done = 0;
  const start = performance.now();
  const deadline = start + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        await call();
        done++;
      }
    }),
  );
  return { perSecond: (done * 1000) / (performance.now() - start), done };
}
