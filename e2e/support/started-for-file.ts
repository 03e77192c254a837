// A process group a spec file shares among its tests (a platform, a simulator): started before the file's tests,
// stopped after them.

/**
 * Returns an object that stands for what `start` returns once it has run, so a spec reads `p.api(…)` as if it held
 * it: every member is looked up on the started value at the moment it is used (inside a test or hook; before the
 * start it throws). Methods are bound to it. The spec's own `beforeAll` hooks run after the start; Jest runs
 * `afterAll` hooks in the order they were declared, so a spec whose teardown must come before the stop (closing a
 * client of it) stops it there itself instead.
 */
export function startedForFile<T extends { stop(): Promise<void> }>(what: string, start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as T, {
    get(_target, member) {
      if (!started) throw new Error(`the ${what} is not started yet (use it inside a test or hook)`);
      const value: unknown = Reflect.get(started, member);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}
