// npm run bench:webhooks — webhook deliveries end to end: outbox events committed in PostgreSQL (as a state change
// commits them) → the dispatcher process's relay (fan-out into deliveries) → BullMQ → a signed POST → a local
// receiver's 200. Every app is a real process (simulator, issuer, gateway, webhook dispatcher) on a fresh database.
// Prints, in the same run:
//   1. the baseline: a bare undici POST loop of the same body to the same receiver (BENCH_INFLIGHT in flight, 64),
//      measured just before and again just after the burst, so a change in the neighbours' load shows;
//   2. throughput: BENCH_EVENTS events (3000) committed at once, fanned out to BENCH_ENDPOINTS endpoints (5):
//      deliveries/s from the commit to the last 200, and the steady rate between the 10th and 90th percentile of the
//      arrivals (the burst is large enough for the relay's first batches and the ramp-up not to dominate);
//   3. latency at a fixed offered load: BENCH_RATE events/s (50, so 250 deliveries/s) for BENCH_MS (10 s): from the
//      event's commit to the receiver's 200 of its first attempt, p50/p99.
// Beside the rates: the dispatcher process's CPU time per delivery in the burst and the share of the burst it was on
// a core (from /proc; the steadier figures on a shared machine, where the rates move with the neighbours' load),
// PostgreSQL's CPU per delivery (its backends on the bench's database), the dispatcher's peak memory, and the load average before and after.
// The receiver runs in this process and answers 200 at once. Goals (issue 17): ≥ 1,000 deliveries/s on the 2-core
// machine; first attempt p99 ≤ 1 s after the state change. Not part of `npm test`.
// BENCH_DISPATCHER_NODE_OPTIONS: NODE_OPTIONS of the dispatcher process only (a CPU profile of it, say);
// BENCH_DISPATCHER_CONCURRENCY: its WEBHOOK_DISPATCHER_CONCURRENCY (else the app's default, printed as read from its
// "ready" log line).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Agent, request } from 'undici';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startPlatform } from '../e2e/issuance/support/platform.js';
import { type CpuByProcess, cpuByProcess } from './support/process-cpu.js';
import { withScratchDatabase } from './support/scratch-database.js';
import { percentile } from './support/percentile.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 5);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const BUDGET_MS = Number(process.env.BENCH_MS ?? 10_000);
const IN_FLIGHT = Number(process.env.BENCH_INFLIGHT ?? 64);

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Peak and current resident memory of a process, in MB (Linux /proc). */
function memoryMbOf(pid: number | undefined): { peak: number; now: number } {
  if (pid === undefined) return { peak: Number.NaN, now: Number.NaN };
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

/**
 * CPU ms of this run's PostgreSQL backends (those on the bench's database) between two readings. Redis and the
 * server-wide PostgreSQL processes are shared with whatever else runs on the machine, so they are left out.
 */
function postgresCpuMs(before: CpuByProcess, after: CpuByProcess): number {
  let seconds = 0;
  for (const [pid, { role, seconds: now }] of after) if (role === 'postgres') seconds += now - (before.get(pid)?.seconds ?? 0);
  return seconds * 1000;
}

const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(1))
    .join(' ');

/** The concurrency the dispatcher logged in its "ready" line (its config's value, default or not). */
function concurrencyLogged(output: readonly string[]): string {
  for (const line of output) {
    const match = /"concurrency":(\d+)/.exec(line);
    if (match) return match[1]!;
  }
  return 'unknown';
}

interface Arrival {
  at: number;
  createdAt: number;
}

/** A receiver that answers 200 at once and records, per delivery id, when the first request arrived. */
async function startReceiver() {
  const arrivals = new Map<string, Arrival>();
  let bodyBytes = 0;
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = req.headers['service-delivery-id'];
      if (typeof id === 'string' && req.url !== '/bare' && !arrivals.has(id)) {
        const body = Buffer.concat(chunks).toString('utf8');
        bodyBytes = body.length;
        arrivals.set(id, { at: Date.now(), createdAt: Date.parse((JSON.parse(body) as { created_at: string }).created_at) });
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, arrivals, bodyBytes: () => bodyBytes, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function bareUndiciLoop(origin: string, bodySize: number, count: number): Promise<number> {
  const agent = new Agent({ connections: IN_FLIGHT });
  const body = 'x'.repeat(bodySize);
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < count) {
        const response = await request(`${origin}/bare`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
          dispatcher: agent,
        });
        await response.body.dump();
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await agent.close();
  return count / seconds;
}

async function main(): Promise<void> {
  await withScratchDatabase('talao_bench_webhooks', async (databaseUrl) => {
    process.env.DATABASE_URL = databaseUrl;
    const receiver = await startReceiver();
    const platform = await startPlatform('bench-webhooks', {
      issuerEnv: { LOG_LEVEL: 'warn' },
      gatewayEnv: { LOG_LEVEL: 'warn', RATE_LIMIT_CREATE_WEBHOOK: '1000' },
      webhookDispatcherEnv: {
        // info: its "ready" line names the concurrency in use; the delivery path logs nothing below warn.
        LOG_LEVEL: 'info',
        WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(IN_FLIGHT),
        ...(process.env.BENCH_DISPATCHER_CONCURRENCY ? { WEBHOOK_DISPATCHER_CONCURRENCY: process.env.BENCH_DISPATCHER_CONCURRENCY } : {}),
        // e.g. "--cpu-prof --cpu-prof-dir=/tmp/profiles": profile the dispatcher alone.
        ...(process.env.BENCH_DISPATCHER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_DISPATCHER_NODE_OPTIONS } : {}),
      },
    });
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    try {
      const company = await platform.createCompany();
      const issued = await platform.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
      if (issued.status !== 201) throw new Error(`fixture invoice: ${issued.status}`);
      const invoiceId = String(issued.body['invoice_id']);
      for (let n = 0; n < ENDPOINTS; n++) {
        const answer = await platform.api('POST', '/api/v1/webhooks', {
          key: company.homologationKey,
          body: { url: `${receiver.origin}/e${n}`, secret: 'whsec_bench_0123456789', events: ['invoice.authorized'] },
        });
        if (answer.status !== 201) throw new Error(`register: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      // Events as the issuance commits them: one outbox row per state change, for the fixture invoice.
      const commit = (count: number) =>
        sql.query(
          `INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload)
           SELECT gen_random_uuid(), $1::uuid, 'homologation', 'invoice.authorized', $2::uuid, '{}'::jsonb FROM generate_series(1, $3::int)`,
          [company.id, invoiceId, count],
        );
      const waitForArrivals = async (total: number, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        while (receiver.arrivals.size < total && Date.now() < deadline) await sleep(20);
        if (receiver.arrivals.size < total) throw new Error(`only ${receiver.arrivals.size} of ${total} deliveries arrived`);
      };
      // Warm-up (JIT, connections): not measured.
      await commit(200);
      await waitForArrivals(ENDPOINTS * 200, 120_000);

      const bareBefore = await bareUndiciLoop(receiver.origin, receiver.bodyBytes(), 5_000);

      receiver.arrivals.clear();
      const dispatcherPid = platform.dispatcher()?.child.pid;
      const databaseName = new URL(databaseUrl).pathname.slice(1);
      const loadBefore = loadAverage();
      const cpuBefore = cpuMsOf(dispatcherPid);
      const postgresBefore = cpuByProcess(databaseName);
      const burstStart = Date.now();
      await commit(EVENTS);
      await waitForArrivals(ENDPOINTS * EVENTS, 300_000);
      const arrivals = [...receiver.arrivals.values()].map((a) => a.at).sort((a, b) => a - b);
      const burstEnd = arrivals[arrivals.length - 1]!;
      const dispatcherCpuMs = cpuMsOf(dispatcherPid) - cpuBefore;
      const postgresCpuPerDelivery = postgresCpuMs(postgresBefore, cpuByProcess(databaseName)) / (ENDPOINTS * EVENTS);
      const loadAfter = loadAverage();
      const memory = memoryMbOf(dispatcherPid);
      const dispatcherCpuPerDelivery = dispatcherCpuMs / (ENDPOINTS * EVENTS);
      const dispatcherBusy = dispatcherCpuMs / (burstEnd - burstStart);
      const throughput = (ENDPOINTS * EVENTS) / ((burstEnd - burstStart) / 1000);
      const [p10, p90] = [percentile(arrivals, 10), percentile(arrivals, 90)];
      const steady = (0.8 * arrivals.length) / ((p90 - p10) / 1000);
      const bareAfter = await bareUndiciLoop(receiver.origin, receiver.bodyBytes(), 5_000);
      const bare = (bareBefore + bareAfter) / 2;

      receiver.arrivals.clear();
      const ticks = Math.round(BUDGET_MS / 100);
      let committed = 0;
      for (let tick = 0; tick < ticks; tick++) {
        const due = Math.round(((tick + 1) * RATE) / 10) - committed;
        if (due > 0) await commit(due);
        committed += due;
        await sleep(100);
      }
      await waitForArrivals(ENDPOINTS * committed, 120_000);
      const latencies = [...receiver.arrivals.values()].map((a) => a.at - a.createdAt).sort((a, b) => a - b);

      const deliveries = ENDPOINTS * EVENTS;
      console.log(
        `bench:webhooks (${ENDPOINTS} endpoints on one local receiver, dispatcher concurrency ${concurrencyLogged(platform.dispatcher()?.output ?? [])})`,
      );
      console.log(`  load average before / after the burst       ${loadBefore} / ${loadAfter}`);
      console.log(
        `  bare undici POST loop (${IN_FLIGHT} in flight)      ${bareBefore.toFixed(0)} req/s before, ${bareAfter.toFixed(0)} after`,
      );
      console.log(
        `  deliveries, ${EVENTS} events committed at once   ${throughput.toFixed(0)} deliveries/s (${((100 * throughput) / bare).toFixed(0)}% of bare), steady ${steady.toFixed(0)}/s (10th–90th percentile of ${deliveries} arrivals)`,
      );
      console.log(
        `  dispatcher CPU per delivery in the burst      ${(1000 * dispatcherCpuPerDelivery).toFixed(0)} µs (on a core ${(100 * dispatcherBusy).toFixed(0)}% of the burst)`,
      );
      console.log(`  PostgreSQL CPU per delivery (this database)   ${(1000 * postgresCpuPerDelivery).toFixed(0)} µs`);
      console.log(
        `  dispatcher memory                             peak ${memory.peak.toFixed(0)} MB, ${memory.now.toFixed(0)} MB after the burst`,
      );
      console.log(
        `  commit → receiver 200 at ${RATE * ENDPOINTS} deliveries/s  p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (${latencies.length} deliveries)`,
      );
    } finally {
      await sql.end();
      await platform.stop();
      await receiver.close();
    }
  });
}

await main();
