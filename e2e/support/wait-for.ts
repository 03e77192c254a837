// Waiting, in an e2e suite, for what a running process does in its own time (a job completing, a delivery landing).

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 500;

/**
 * Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs` naming `what` it waited for.
 * The pause between probes grows from 100 ms to 500 ms: a probe that calls the API counts against the key's rate
 * limit (300 a minute in SPEC.md), and a long wait polled every 100 ms would spend it and be answered 429.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(LONGEST_PAUSE_MS, pause * 1.5)) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
