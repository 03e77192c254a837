// The launcher's fallbacks for a machine without PostgreSQL or Redis: a real embedded PostgreSQL and a real
// redis-server, started and stopped by the same code `npm start` runs.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { providePostgres } from './postgres.mjs';
import { ping, provideRedis, RedisUnavailableError } from './redis.mjs';

const lines: string[] = [];
const log = {
  info: (m: string) => lines.push(m),
  warn: (m: string) => lines.push(m),
  error: (m: string) => lines.push(m),
  line: (m: string) => lines.push(m),
};

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'talao-start-'));
  // As root the embedded server runs as the `postgres` user, which must be able to reach its data folder.
  chmodSync(dataDir, 0o755);
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('providePostgres', () => {
  it('uses DATABASE_URL as given', async () => {
    const provided = await providePostgres({ dataDir, password: 'unused', log, env: { DATABASE_URL: 'postgresql://u@db.example/x' } });
    expect(provided).toMatchObject({ url: 'postgresql://u@db.example/x', source: 'DATABASE_URL' });
  });

  it('starts an embedded PostgreSQL with a talao database, stops it, and starts it again on the same data', async () => {
    const first = await providePostgres({ dataDir, password: 'embedded-secret', log, env: {}, tryLocal: false });
    try {
      expect(first.url).toMatch(/^postgresql:\/\/postgres:embedded-secret@127\.0\.0\.1:\d+\/talao$/);
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query('CREATE TABLE kept (value text)');
      await client.query("INSERT INTO kept VALUES ('still here')");
      await client.end();
    } finally {
      await first.stop();
    }
    await expect(new pg.Client({ connectionString: first.url }).connect()).rejects.toThrow();

    const second = await providePostgres({ dataDir, password: 'embedded-secret', log, env: {}, tryLocal: false });
    try {
      const client = new pg.Client({ connectionString: second.url });
      await client.connect();
      expect((await client.query('SELECT value FROM kept')).rows).toEqual([{ value: 'still here' }]);
      await client.end();
    } finally {
      await second.stop();
    }
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 60_000);

  it('as root, explains a data folder the postgres user cannot reach instead of failing inside initdb', async () => {
    if (process.getuid?.() !== 0) return; // only root hands the server over to the postgres user
    const closed = path.join(dataDir, 'closed');
    mkdirSync(path.join(closed, 'inner'), { recursive: true });
    chmodSync(closed, 0o700);
    const attempt = providePostgres({ dataDir: path.join(closed, 'inner'), password: 'x', log, env: {}, tryLocal: false });
    await expect(attempt).rejects.toThrow(`cannot enter ${closed} (mode 700)`);
  });
});

describe('provideRedis', () => {
  it('uses REDIS_URL as given', async () => {
    const provided = await provideRedis({ dataDir, log, env: { REDIS_URL: 'redis://cache.example:6380' } });
    expect(provided).toMatchObject({ url: 'redis://cache.example:6380', source: 'REDIS_URL' });
  });

  it('starts a redis-server from PATH on a free port and stops it', async () => {
    const provided = await provideRedis({ dataDir, log, env: { PATH: process.env.PATH }, tryLocal: false });
    const port = Number(new URL(provided.url).port);
    expect(port).not.toBe(6379);
    expect(await ping('127.0.0.1', port)).toBe(true);
    await provided.stop();
    expect(await ping('127.0.0.1', port)).toBe(false);
  }, 30_000);

  it('explains how to get Redis when there is none', async () => {
    const attempt = provideRedis({ dataDir, log, env: { PATH: '/nonexistent' }, tryLocal: false });
    await expect(attempt).rejects.toBeInstanceOf(RedisUnavailableError);
    await expect(attempt).rejects.toThrow(/apt-get install -y redis-server[\s\S]*REDIS_URL=/);
  });
});
