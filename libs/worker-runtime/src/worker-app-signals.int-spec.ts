// A worker app as a process: SIGTERM, SIGINT and SIGHUP each stop it gracefully (the job in progress finishes and
// is recorded, exit 0), and a bad environment exits 78 before anything is opened.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import { queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

jest.setTimeout(60_000);

const root = fileURLToPath(new URL('../../../', import.meta.url));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startFixture(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--import', './bench/support/register-ts.mjs', 'libs/worker-runtime/src/testing/signal-fixture.ts'],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', REDIS_URL: redisUrl, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
  '%s: the job in progress finishes and is recorded, then the process exits 0',
  async (signal) => {
    const redisPrefix = `${process.env.REDIS_PREFIX ?? 'talao-test:'}signals-${randomUUID().slice(0, 8)}:`;
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue('issuance', { connection, prefix: queueKeyPrefix(redisPrefix) });
    const fixture = startFixture({ REDIS_PREFIX: redisPrefix, PROBE_JOB_MS: '1500' });
    try {
      for (let i = 0; i < 300 && !fixture.output.join('').includes('"probe ready"'); i++) await sleep(50);
      expect(fixture.output.join('')).toContain('"probe ready"');
      const invoiceId = randomUUID();
      await queue.add('issue', { invoiceId }, { jobId: invoiceId });
      for (let i = 0; i < 100 && (await (await queue.getJob(invoiceId))?.getState()) !== 'active'; i++) await sleep(20);

      fixture.child.kill(signal);
      expect(await fixture.exited).toBe(0);
      expect(await (await queue.getJob(invoiceId))?.getState()).toBe('completed');
      const text = fixture.output.join('');
      expect(text).toContain(`"signal":"${signal}","msg":"probe stopping"`);
      expect(text).toContain('"probe stopped"');
    } finally {
      fixture.child.kill('SIGKILL');
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  },
);

it('exits 78 on a bad environment, naming every bad variable and never echoing a value', async () => {
  const fixture = startFixture({ REDIS_PREFIX: 'has spaces', PROBE_CONCURRENCY: 'many' });
  expect(await fixture.exited).toBe(78);
  const text = fixture.output.join('');
  expect(text).toContain('REDIS_PREFIX must be 1–64 characters');
  expect(text).toContain('PROBE_CONCURRENCY must be a positive integer');
  expect(text).not.toContain('has spaces');
});
