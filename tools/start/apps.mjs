// The one launcher of the apps as child processes, used by `npm start`, the end-to-end tests and the benchmarks:
// environment from the app table (app-table.mjs), output line by line to whoever asks (prefixed logs for `npm start`,
// collected lines for a test), readiness through each app's readiness URL, and an orderly stop (a signal to the
// app's process group, then SIGKILL after a grace period).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createLogger, forEachLine } from './log.mjs';
import { formatLogLine } from './log-format.mjs';

const READY_TIMEOUT_MS = Number(process.env.START_READY_TIMEOUT_MS ?? 90_000);
const STOP_GRACE_MS = 15_000;

/** Children still running: killed (their whole groups) if this process exits without stopping them. */
const live = new Set();
let exitHookInstalled = false;

/**
 * Starts `node <entry>` (relative to `root`) in a process group of its own: a Ctrl-C reaches only the launcher, which
 * stops the apps before PostgreSQL and Redis. `env` goes over this process's environment unless `inheritEnv` is false
 * (a test of what an app does with exactly the variables it is given); `nodeArgs` go before the entry.
 * @param {{ root: string, entry: string, env: Record<string, string>, inheritEnv?: boolean, nodeArgs?: string[],
 *   onLine: (line: string, stream: 'stdout' | 'stderr') => void }} options
 * @returns {{ child: import('node:child_process').ChildProcess, exited: Promise<{ code: number | null, signal: string | null }>,
 *   stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null, signal: string | null }> }}
 */
export function launchApp({ root, entry, env, inheritEnv = true, nodeArgs = [], onLine }) {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, entry)], {
    cwd: root,
    env: inheritEnv ? { ...process.env, ...env } : env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  live.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort if the launcher itself dies: the apps run in their own process groups and would outlive it.
    process.once('exit', () => {
      for (const running of live) signalGroup(running.pid, 'SIGKILL');
    });
  }
  forEachLine(child.stdout, (line) => onLine(line, 'stdout'));
  forEachLine(child.stderr, (line) => onLine(line, 'stderr'));
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  child.once('error', (error) => onLine(`could not start: ${error.message}`, 'stderr'));
  return {
    child,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      signalGroup(child.pid, signal);
      const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), STOP_GRACE_MS);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** "code 0" or "signal SIGTERM": how an app ended, for messages. */
export function describeExit({ code, signal }) {
  return signal ? `signal ${signal}` : `code ${code}`;
}

/**
 * Resolves once `readiness.url` answers 2xx; rejects when the app exits first or after `timeoutMs`.
 * @param {{ name: string, readiness: { url: string, headers?: Record<string, string> },
 *   exited: Promise<{ code: number | null, signal: string | null }>, timeoutMs?: number }} options
 */
export async function waitUntilReady({ name, readiness, exited, timeoutMs = READY_TIMEOUT_MS }) {
  let lastProblem = 'no answer yet';
  let exit;
  exited.then((how) => (exit = how));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exit) throw new Error(`${name} exited before it was ready (${describeExit(exit)})`);
    try {
      const response = await fetch(readiness.url, { headers: readiness.headers ?? {}, signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      lastProblem = `${new URL(readiness.url).pathname} answered ${response.status}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      lastProblem = error.cause?.code ?? error.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s at ${readiness.url} (${lastProblem})`);
}

/**
 * Starts every app with its output prefixed by its name (`npm start`). `stopAll` is usable at once (a Ctrl-C may
 * come while the apps boot); `ready` resolves when each answers 200 on its readiness URL and rejects when one exits
 * first or is not ready in time.
 * @param {{ root: string, apps: Array<{ name: string, entry: string, nodeArgs?: string[] }>,
 *   envFor: (app: any) => Record<string, string>, readinessFor: (app: any) => { url: string, headers?: Record<string, string> },
 *   onUnexpectedExit: (name: string, how: string) => void }} options
 */
export function startApps({ root, apps, envFor, readinessFor, onUnexpectedExit }) {
  const running = apps.map((app) => {
    const log = createLogger(app.name);
    const launched = launchApp({
      root,
      entry: app.entry,
      env: envFor(app),
      nodeArgs: ['--enable-source-maps', ...(app.nodeArgs ?? [])],
      onLine: (line) => log.line(formatLogLine(line)),
    });
    let stopping = false;
    launched.exited.then((how) => {
      if (!stopping) onUnexpectedExit(app.name, describeExit(how));
    });
    return {
      name: app.name,
      pid: launched.child.pid,
      child: launched.child,
      ready: waitUntilReady({ name: app.name, readiness: readinessFor(app), exited: launched.exited }),
      async stop() {
        stopping = true;
        if (launched.child.exitCode === null && launched.child.signalCode === null) {
          const timer = setTimeout(() => log.warn(`did not stop within ${STOP_GRACE_MS / 1000} s; killing it`), STOP_GRACE_MS - 1);
          const how = describeExit(await launched.stop('SIGTERM'));
          clearTimeout(timer);
          log.info(`stopped (${how})`);
          return how;
        }
        return describeExit(await launched.exited);
      },
    };
  });
  const stopAll = async () => {
    // Reverse order: workers that depend on the gateway or simulator go first.
    for (const app of [...running].reverse()) await app.stop();
  };
  return { running, stopAll, ready: Promise.all(running.map((app) => app.ready)) };
}

function signalGroup(pid, signal) {
  try {
    // Negative pid: the whole group, so anything the app spawned stops with it.
    process.kill(-pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}
