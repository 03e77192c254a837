// Waiting, in an e2e suite, for what a running process does in its own time (a job completing, a delivery landing).

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs` naming `what` it waited for. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
