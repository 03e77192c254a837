// The gateway and the issuer as real processes, started by the one launcher (tools/start/apps.mjs) with the
// environment of the one app table (tools/start/app-table.mjs), as `npm start` does. Built with Nx first, one build
// at a time across Jest workers; unchanged projects come from the cache.
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { appNamed } from '../../../tools/start/app-table.mjs';
import { launchApp, waitUntilReady } from '../../../tools/start/apps.mjs';
import { buildProjects, repoRoot, withBuildLock } from '../../support/app-process.js';

/**
 * Builds the gateway, the workers and the simulator, then runs `work` (starting the processes) while still holding the lock: a
 * process loads every module at start, so no other build may rewrite a lib's dist until it is up. `build: false`
 * only takes the lock (restarting a process that was built already).
 */
export function withBuiltApps<T>(work: () => Promise<T>, options: { build: boolean } = { build: true }): Promise<T> {
  return withBuildLock(() => {
    if (options.build)
      buildProjects([
        '@talao/gateway',
        '@talao/issuer',
        '@talao/canceller',
        '@talao/pdf-renderer',
        '@talao/webhook-dispatcher',
        '@talao/received-sync',
        '@talao/mcp',
        '@talao/authorizer-sim',
      ]);
    return work();
  });
}

export interface AppProcess {
  readonly child: ChildProcess;
  /** stderr and the first stdout lines (JSON logs), for the error message when it fails to start. */
  readonly output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts a platform's apps one after another through `start`, which hands each app it started to `up`. When a start
 * fails, the apps already up are killed (SIGKILL, in start order) and `cleanUp` runs before the error goes on: the
 * caller never gets a platform to stop.
 */
export async function startAllOrNone<T>(
  start: (up: (app: AppProcess) => AppProcess) => Promise<T>,
  cleanUp: () => Promise<void>,
): Promise<T> {
  const started: AppProcess[] = [];
  try {
    return await start((app) => {
      started.push(app);
      return app;
    });
  } catch (error) {
    for (const app of started) await app.kill('SIGKILL');
    await cleanUp();
    throw error;
  }
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
 * Starts the app table's `name` with its environment for `context` (the table's ctx) plus `overrides`, and resolves
 * once its readiness URL answers 200 (PostgreSQL and Redis reachable), whatever the log level: the benchmark runs
 * the apps at LOG_LEVEL=warn, where no "ready" log line would appear.
 */
export async function startApp(name: string, context: object, overrides: Record<string, string> = {}): Promise<AppProcess> {
  const app = appNamed(name);
  const output: string[] = [];
  const launched = launchApp({
    root: repoRoot,
    entry: app.entry,
    nodeArgs: app.nodeArgs ?? [],
    env: { ...app.env(context), ...overrides },
    onLine: (line) => {
      if (output.length < 200) output.push(`${line}\n`);
    },
  });
  try {
    await waitUntilReady({ name, readiness: app.readiness(context), exited: launched.exited, timeoutMs: 30_000 });
  } catch (error) {
    await launched.stop('SIGKILL');
    throw new Error(`${(error as Error).message}:\n${output.join('')}`);
  }
  return {
    child: launched.child,
    output,
    async kill(signal = 'SIGTERM') {
      await launched.stop(signal);
    },
  };
}
