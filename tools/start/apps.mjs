// Runs the apps as child processes: environment from the app table, log lines prefixed with the app name, readiness
// through each app's readiness URL (/readyz for the gateway), and an orderly stop (SIGTERM, then SIGKILL after a grace period).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createLogger, forEachLine } from './log.mjs';
import { formatLogLine } from './log-format.mjs';

const READY_TIMEOUT_MS = Number(process.env.START_READY_TIMEOUT_MS ?? 90_000);
const STOP_GRACE_MS = 10_000;

/**
 * Starts every app. `stopAll` is usable at once (a Ctrl-C may come while the apps boot); `ready` resolves when each
 * answers 200 on its readiness URL and rejects when one exits first or is not ready in time.
 * @param {{ root: string, apps: Array<{ name: string, entry: string }>,
 *   envFor: (app: any) => Record<string, string>, readinessFor: (app: any) => { url: string, headers?: Record<string, string> },
 *   onUnexpectedExit: (name: string, how: string) => void }} options
 */
export function startApps({ root, apps, envFor, readinessFor, onUnexpectedExit }) {
  const running = apps.map((app) => launch({ root, app, env: envFor(app), readiness: readinessFor(app), onUnexpectedExit }));
  const stopAll = async () => {
    // Reverse order: workers that depend on the gateway or simulator go first.
    for (const child of [...running].reverse()) await child.stop();
  };
  // Last resort if the launcher itself dies: the apps run in their own process groups and would outlive it.
  process.once('exit', () => {
    for (const { child } of running) if (child.exitCode === null && child.signalCode === null) signalGroup(child.pid, 'SIGKILL');
  });
  return { running, stopAll, ready: Promise.all(running.map((child) => child.ready)) };
}

function launch({ root, app, env, readiness, onUnexpectedExit }) {
  const log = createLogger(app.name);
  const entry = path.join(root, app.entry);
  // Own process group: a Ctrl-C reaches only the launcher, which stops the apps before PostgreSQL and Redis.
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  forEachLine(child.stdout, (line) => log.line(formatLogLine(line)));
  forEachLine(child.stderr, (line) => log.line(formatLogLine(line)));

  let stopping = false;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!stopping) onUnexpectedExit(app.name, how);
      resolve(how);
    });
  });
  child.once('error', (error) => log.error(`could not start: ${error.message}`));

  const ready = waitUntilReady({ name: app.name, readiness, exited });
  const stop = async () => {
    if (stopping) return exited;
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    signalGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      log.warn(`did not stop within ${STOP_GRACE_MS / 1000} s; killing it`);
      signalGroup(child.pid, 'SIGKILL');
    }, STOP_GRACE_MS);
    const how = await exited;
    clearTimeout(timer);
    log.info(`stopped (${how})`);
    return how;
  };
  return { name: app.name, pid: child.pid, ready, stop, child };
}

async function waitUntilReady({ name, readiness, exited }) {
  let lastProblem = 'no answer yet';
  let hasExited = false;
  exited.then(() => (hasExited = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`${name} exited before it was ready (${await exited})`);
    try {
      const response = await fetch(readiness.url, { headers: readiness.headers ?? {}, signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      lastProblem = `${new URL(readiness.url).pathname} answered ${response.status}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      lastProblem = error.cause?.code ?? error.message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s at ${readiness.url} (${lastProblem})`);
}

function signalGroup(pid, signal) {
  try {
    // Negative pid: the whole group, so anything the app spawned stops with it.
    process.kill(-pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}
