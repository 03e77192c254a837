// Redis for a local run, first match wins:
//   1. REDIS_URL from the environment, used as given;
//   2. a server on 127.0.0.1:6379 answering PING;
//   3. a `redis-server` found on PATH, started by the launcher on a free port without persistence (Redis holds only
//      queues, counters and locks; PostgreSQL is the source of truth) and stopped again with it;
//   4. otherwise a clear error saying how to get one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { findFreePort } from './ports.mjs';

const LOCAL_SERVER = { host: '127.0.0.1', port: 6379 };

export class RedisUnavailableError extends Error {}

/**
 * @param {{ dataDir: string, log: ReturnType<typeof import('./log.mjs').createLogger>, env?: NodeJS.ProcessEnv,
 *   tryLocal?: boolean }} options
 * @returns {Promise<{ url: string, source: string, stop: () => Promise<void> }>}
 */
export async function provideRedis({ dataDir, log, env = process.env, tryLocal = true }) {
  if (env.REDIS_URL) return { url: env.REDIS_URL, source: 'REDIS_URL', stop: async () => {} };
  if (tryLocal && (await ping(LOCAL_SERVER.host, LOCAL_SERVER.port))) {
    return {
      url: `redis://${LOCAL_SERVER.host}:${LOCAL_SERVER.port}`,
      source: `local server ${LOCAL_SERVER.host}:${LOCAL_SERVER.port}`,
      stop: async () => {},
    };
  }
  const binary = findOnPath('redis-server', env);
  if (!binary) {
    throw new RedisUnavailableError(
      [
        'Redis is needed and none was found:',
        `  - REDIS_URL is not set,`,
        `  - nothing answers PING on ${LOCAL_SERVER.host}:${LOCAL_SERVER.port},`,
        '  - no `redis-server` on PATH to start one.',
        'Either install Redis (Debian/Ubuntu: `sudo apt-get install -y redis-server`; macOS: `brew install redis`)',
        'or point the launcher at one: `REDIS_URL=redis://host:6379 npm start`.',
      ].join('\n'),
    );
  }
  log.info(`no Redis at ${LOCAL_SERVER.host}:${LOCAL_SERVER.port}; starting ${binary}`);
  return startRedisServer({ binary, dataDir: path.join(dataDir, 'redis'), log });
}

/** True when a Redis server at host:port answers PING with PONG within `timeoutMs`. */
export function ping(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.createConnection({ host, port });
    let answer = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

function findOnPath(program, env) {
  const found = spawnSync('sh', ['-c', `command -v ${program}`], { env, encoding: 'utf8' });
  const location = found.status === 0 ? found.stdout.trim() : '';
  return location.length > 0 ? location : undefined;
}

async function startRedisServer({ binary, dataDir, log }) {
  await mkdir(dataDir, { recursive: true });
  const port = await findFreePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dataDir,
    '--logfile',
    path.join(dataDir, 'redis.log'),
  ];
  // Own process group: a Ctrl-C in the terminal reaches only the launcher, which stops Redis after the apps.
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 10_000;
  while (!(await ping('127.0.0.1', port, 250))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}: ${stderr.trim() || `see ${path.join(dataDir, 'redis.log')}`}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  log.info(`redis-server (pid ${child.pid}) listening on 127.0.0.1:${port}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    source: `redis-server started on port ${port}`,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timeout = new Promise((resolve) => setTimeout(resolve, 10_000, 'timeout').unref());
      if ((await Promise.race([exited, timeout])) === 'timeout') child.kill('SIGKILL');
      log.info('redis-server stopped');
    },
  };
}
