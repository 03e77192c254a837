// Profiling bench of the issuance pipeline without the gateway: where does an NF-e's time go?
//   node --import ./bench/support/register-ts.mjs bench/issuer-pipeline.bench.ts
// On a fresh database of its own (migrated), with the simulator as a real process at zero latency:
//   1. create side: BENCH_INVOICES (600) `createInvoice` calls, BENCH_CREATE_CONCURRENCY (16) at a time, no worker
//      running (invoices/s, p50/p99);
//   2. issue side: the issuer's handler table on the worker runtime (as apps/issuer runs it) at BENCH_WORKER_CONCURRENCY (16)
//      drains the queue: authorized NF-e/s, and the time spent in each port (PostgreSQL repositories, certificate
//      cache, SEFAZ client) summed over all jobs and divided by the number of invoices.
// BENCH_PROFILE=<file.cpuprofile> records a CPU profile of this process during the issue side only (the worker's
// share; the simulator can be profiled with NODE_OPTIONS=--cpu-prof, which its child process inherits).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInvoice } from '@talao/issuance';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startHarness } from '../e2e/issuer/support/issuer-harness.js';
import { withScratchDatabase } from './support/scratch-database.js';
import { percentile } from './support/percentile.js';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 600);
const CREATE_CONCURRENCY = Number(process.env.BENCH_CREATE_CONCURRENCY ?? 16);
const WORKER_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 16);

/** Wraps every method of a port so the time spent in it is summed per "port.method". */
function timed<T extends object>(label: string, target: T, totals: Map<string, { ms: number; calls: number }>): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const key = `${label}.${property}`;
      return (...args: unknown[]) => {
        const t0 = performance.now();
        const add = () => {
          const entry = totals.get(key) ?? { ms: 0, calls: 0 };
          entry.ms += performance.now() - t0;
          entry.calls++;
          totals.set(key, entry);
        };
        const result = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (result instanceof Promise) return result.finally(add);
        add();
        return result;
      };
    },
  });
}

async function main(): Promise<void> {
  await withScratchDatabase('talao_pipeline', async (databaseUrl) => {
    process.env.DATABASE_URL = databaseUrl;
    const harness = await startHarness();
    try {
      const companyId = await harness.createCompany();
      const body = sampleNfeRequest();

      const createLatencies: number[] = [];
      const ids: string[] = [];
      let next = 0;
      const createStart = performance.now();
      await Promise.all(
        Array.from({ length: CREATE_CONCURRENCY }, async () => {
          while (next++ < INVOICES) {
            const t0 = performance.now();
            const created = await createInvoice(harness.createDeps, { companyId, environment: 'homologation', body });
            createLatencies.push(performance.now() - t0);
            ids.push(created.invoice.id);
          }
        }),
      );
      const createElapsed = performance.now() - createStart;
      createLatencies.sort((a, b) => a - b);
      console.log(
        `create side: ${((ids.length * 1000) / createElapsed).toFixed(1)} invoices/s (${ids.length} at concurrency ${CREATE_CONCURRENCY}), ` +
          `p50 ${percentile(createLatencies, 50).toFixed(1)} ms, p99 ${percentile(createLatencies, 99).toFixed(1)} ms`,
      );

      const totals = new Map<string, { ms: number; calls: number }>();
      const deps = harness.issueDeps as unknown as Record<string, object>;
      for (const port of [
        'invoices',
        'companies',
        'certificates',
        'certificateCache',
        'submissions',
        'usage',
        'outbox',
        'sefaz',
      ] as const) {
        deps[port] = timed(port, deps[port] as object, totals);
      }
      const profiler = process.env.BENCH_PROFILE ? new Session() : null;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      // Every job's end arrives on the queue's outcome channel; subscribed before the worker takes the first job.
      const outcomes = await harness.jobOutcomes();
      let pending = ids.length;
      const drained = new Promise<void>((resolve) => {
        const done = () => {
          if (--pending === 0) resolve();
        };
        outcomes.on('completed', done);
        outcomes.on('failed', ({ jobId }: { jobId: string }) => {
          console.error(`job ${jobId} failed`);
          done();
        });
      });
      const issueStart = performance.now();
      await harness.startWorker(WORKER_CONCURRENCY);
      await drained;
      const issueElapsed = performance.now() - issueStart;
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(profile));
        profiler.disconnect();
      }
      const rows = await harness.prisma.invoice.groupBy({ by: ['status'], where: { companyId }, _count: true });
      const events = await harness.prisma.outboxEvent.count({ where: { companyId, type: 'invoice.authorized' } });
      console.log(
        `issue side: ${((ids.length * 1000) / issueElapsed).toFixed(1)} NF-e/s (${ids.length} in ${(issueElapsed / 1000).toFixed(1)} s, worker concurrency ${WORKER_CONCURRENCY}); ` +
          `states: ${rows.map((r) => `${r.status}×${r._count}`).join(' ')}, invoice.authorized events: ${events}`,
      );
      console.log('  time in each port per invoice (wall clock, overlapping across concurrent jobs):');
      for (const [key, entry] of [...totals].sort((a, b) => b[1].ms - a[1].ms)) {
        console.log(`    ${key.padEnd(32)} ${(entry.ms / ids.length).toFixed(2).padStart(8)} ms  (${entry.calls} calls)`);
      }
    } finally {
      await harness.stop();
    }
  });
}

await main();
