// The gateway and the issuer as real processes (built by Nx first, one build at a time across Jest workers; unchanged
// projects come from the cache). Each process is started with its own environment and can be killed (SIGKILL) and
// started again with the same environment.
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { buildProjects, spawnApp, withBuildLock } from '../../support/app-process.js';

/**
 * Builds gateway, issuer and simulator, then runs `work` (starting the processes) while still holding the lock: a
 * process loads every module at start, so no other build may rewrite a lib's dist until it is up. `build: false`
 * only takes the lock (restarting a process that was built already).
 */
export function withBuiltApps<T>(work: () => Promise<T>, options: { build: boolean } = { build: true }): Promise<T> {
  return withBuildLock(() => {
    if (options.build) buildProjects(['@talao/gateway', '@talao/issuer', '@talao/authorizer-sim']);
    return work();
  });
}

export interface AppProcess {
  readonly child: ChildProcess;
  /** stderr and the first stdout lines (JSON logs), for the error message when it fails to start. */
  readonly output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A TCP port free right now on the loopback interface (the app binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `entry` and resolves once `readyUrl` answers 200 (readiness: PostgreSQL and Redis reachable), whatever the
 * log level: the benchmark runs the apps at LOG_LEVEL=warn, where no "ready" log line would appear.
 */
export async function startApp(entry: string, env: Record<string, string>, readyUrl: string): Promise<AppProcess> {
  const app = spawnApp(entry, { ...process.env, ...env }, { stderr: 'pipe' });
  await app.waitForUrl(readyUrl, 30_000);
  return {
    child: app.child,
    output: app.output,
    async kill(signal = 'SIGTERM') {
      await app.stop(signal);
    },
  };
}
