// npm run bench:issue — authorized NF-e per second through the whole platform: HTTP POST /api/v1/invoices on the
// gateway (auth, rate limit, validation, number reservation, PostgreSQL, BullMQ) → the issuer process (build, sign,
// XSD-validate, store the exact bytes, transmit over mTLS) → the authorizer simulator at zero latency → the outcome
// transaction → the gateway's answer (201). Every app is a real process, on a fresh database of its own.
// Prints, in the same run:
//   1. the baseline: bench:authorizer (SefazClient + simulator, pre-signed NF-e), run as a child process;
//   2. sustained throughput: closed loop, BENCH_CONCURRENCY clients (64) for BENCH_MS (15 s): NF-e/s, p50/p99,
//      after BENCH_WARMUP_MS (5 s) of the same load, not measured (the JIT tiers code up by calls: the first
//      thousands of documents of a fresh platform run on baseline code);
//   3. latency at a fixed offered load: BENCH_RATE requests/s (100) open loop for BENCH_MS: p50/p99, after a lead-in
//      of BENCH_LEAD_IN_MS (3 s) at that rate, not measured.
// Each phase also prints the CPU milliseconds per authorized NF-e of every process (gateway, issuer, simulator,
// PostgreSQL, Redis, this client), read from /proc: where the two cores went.
// The client is node:http with keep-alive sockets (fetch costs this shared machine more CPU per request).
// BENCH_PROFILE_DIR=<dir> runs gateway and issuer with --cpu-prof into that folder (open the .cpuprofile files in
// Chrome DevTools) to see where the time goes; BENCH_NODE_OPTIONS=<flags> passes Node flags to both.
// BENCH_TRACING=1 runs gateway and issuer with tracing on (OpenTelemetry, every request sampled unless
// OTEL_TRACES_SAMPLER says otherwise, OTLP/HTTP protobuf to a sink in this process that reads and drops the batches):
// the figures against a run without it are the cost of tracing; without it, the apps load no OpenTelemetry at all.
// Goal (issue 5): ≥ 250 NF-e/s sustained on the 2-core machine, p99 ≤ 100 ms at 100 requests/s.
import { spawnSync } from 'node:child_process';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startPlatform } from '../e2e/issuance/support/platform.js';
import { cpuByProcess, describeCpuPerDocument } from './support/process-cpu.js';
import { postJson } from './support/post-json.js';
import { withScratchDatabase } from './support/scratch-database.js';
import { percentile } from './support/percentile.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const BUDGET_MS = Number(process.env.BENCH_MS ?? 15_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 5_000);
const LEAD_IN_MS = Number(process.env.BENCH_LEAD_IN_MS ?? 3_000);

function runBaseline(): { output: string; perSecond: number | null } {
  const result = spawnSync(process.execPath, ['--import', './bench/support/register-ts.mjs', 'bench/authorizer.bench.ts'], {
    cwd: repoRoot,
    env: { ...process.env, BENCH_AUTHORIZATIONS: process.env.BENCH_AUTHORIZER_COUNT ?? '4000' },
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.status === 0 ? '' : result.stderr}`;
  const figures = [...output.matchAll(/([0-9.]+) authorizations\/s/g)].map((m) => Number(m[1]));
  return { output, perSecond: figures.length > 0 ? Math.max(...figures) : null };
}

/** An OTLP/HTTP endpoint that reads every export and drops it (what a collector costs is not the apps' cost). */
async function startTraceSink(): Promise<{ endpoint: string; exports: () => { requests: number; bytes: number }; close: () => void }> {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => ({ requests, bytes }),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

interface Sample {
  status: number;
  ms: number;
}

/** Closed loop: `clients` callers, each issuing again as soon as its answer arrives, for `ms`. */
async function closedLoop(issue: () => Promise<Sample>, clients: number, ms: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() - start < ms) samples.push(await issue());
    }),
  );
  return samples;
}

/** Open loop: starts `issue` `rate` times a second for `ms`, whatever the answers take; resolves with every sample. */
async function offer(issue: () => Promise<Sample>, rate: number, ms: number): Promise<Sample[]> {
  const started: Promise<Sample>[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < ms; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    started.push(issue());
  }
  return Promise.all(started);
}

function summary(label: string, samples: Sample[], elapsedMs: number): void {
  const ok = samples.filter((s) => s.status === 201);
  const latencies = samples.map((s) => s.ms).sort((a, b) => a - b);
  const others = samples.length - ok.length;
  const counts = new Map<number, number>();
  for (const s of samples) if (s.status !== 201) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const byStatus = [...counts].map(([status, count]) => `${status === 0 ? 'transport error' : status}×${count}`);
  console.log(
    `  ${label}: ${((ok.length * 1000) / elapsedMs).toFixed(1)} authorized NF-e/s (${ok.length} in ${(elapsedMs / 1000).toFixed(1)} s` +
      `${others ? `, other answers: ${byStatus.join(' ')}` : ''}), latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
}

async function main(): Promise<void> {
  console.log('baseline (bench:authorizer, same run):');
  const baseline = runBaseline();
  console.log(baseline.output.trimEnd().replace(/^/gm, '  '));

  await withScratchDatabase('talao_bench', async (databaseUrl) => {
    process.env.DATABASE_URL = databaseUrl;
    const nodeOptions = [
      ...(process.env.BENCH_PROFILE_DIR ? [`--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
      ...(process.env.BENCH_NODE_OPTIONS ? [process.env.BENCH_NODE_OPTIONS] : []),
    ];
    const profiling: Record<string, string> = nodeOptions.length > 0 ? { NODE_OPTIONS: nodeOptions.join(' ') } : {};
    const sink = process.env.BENCH_TRACING === '1' ? await startTraceSink() : undefined;
    const tracing: Record<string, string> = sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint } : {};
    console.log(
      sink ? `tracing on (BENCH_TRACING=1): OTLP/HTTP to a sink at ${sink.endpoint}` : 'tracing off (BENCH_TRACING=1 turns it on)',
    );
    const platform = await startPlatform('bench', {
      issuerEnv: { ISSUER_CONCURRENCY: process.env.BENCH_ISSUER_CONCURRENCY ?? '32', LOG_LEVEL: 'warn', ...profiling, ...tracing },
      gatewayEnv: { RATE_LIMIT_CREATE_INVOICE: '1000000', LOG_LEVEL: 'warn', ...profiling, ...tracing },
    });
    try {
      const company = await platform.createCompany();
      const body = JSON.stringify(sampleNfeRequest());
      const agent = new Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, RATE) });
      const url = new URL('/api/v1/invoices', platform.gatewayUrl);
      const headers = { authorization: `Bearer ${company.homologationKey}` };
      const database = new URL(databaseUrl).pathname.slice(1);
      // A transport error (e.g. the server closing a keep-alive socket as a request is written on it) is a sample
      // with status 0, reported with the other answers: it must not end the run, nor go unnoticed.
      const issue = async (): Promise<Sample> => {
        const t0 = performance.now();
        const status = await postJson(agent, url, headers, body).then(
          (answer) => answer.status,
          () => 0,
        );
        return { status, ms: performance.now() - t0 };
      };
      // Warm-up, not measured: the JIT tiers code up by calls, so a platform fresh from start runs its first
      // thousands of documents on baseline code (and compiles in the background); "sustained" means after that.
      const warmUp = await closedLoop(issue, CONCURRENCY, WARMUP_MS);
      console.log(
        `warm-up: ${warmUp.filter((s) => s.status === 201).length} NF-e in ${(WARMUP_MS / 1000).toFixed(0)} s with ${CONCURRENCY} clients (not measured)`,
      );

      console.log(`issue bench: HTTP → gateway → issuer → simulator (zero latency), ${BUDGET_MS} ms per phase`);
      const closedCpu = cpuByProcess(database);
      const start = performance.now();
      const closed = await closedLoop(issue, CONCURRENCY, BUDGET_MS);
      const closedElapsed = performance.now() - start;
      const closedAuthorized = closed.filter((s) => s.status === 201).length;
      summary(`sustained, ${CONCURRENCY} concurrent clients`, closed, closedElapsed);
      console.log(`    CPU per authorized NF-e: ${describeCpuPerDocument(closedCpu, cpuByProcess(database), closedAuthorized)}`);
      const sustained = (closedAuthorized * 1000) / closedElapsed;

      await sleep(2_000); // let the queue drain
      // A lead-in at the offered rate, not measured (as wrk2 calibrates before it records): the step from saturation
      // to a steady trickle changes batch sizes and pool use, and the code deoptimized by the change recompiles.
      await offer(issue, RATE, LEAD_IN_MS);
      const openCpu = cpuByProcess(database);
      const openStart = performance.now();
      const openSamples = await offer(issue, RATE, BUDGET_MS);
      summary(`offered ${RATE} requests/s`, openSamples, performance.now() - openStart);
      const openAuthorized = openSamples.filter((s) => s.status === 201).length;
      console.log(`    CPU per authorized NF-e: ${describeCpuPerDocument(openCpu, cpuByProcess(database), openAuthorized)}`);

      if (baseline.perSecond) {
        console.log(
          `ratio to baseline: ${(sustained / baseline.perSecond).toFixed(2)} (${sustained.toFixed(1)} / ${baseline.perSecond.toFixed(1)} authorizations/s)`,
        );
      }
      if (sink) {
        const { requests, bytes } = sink.exports();
        console.log(`trace exports received: ${requests} batches, ${(bytes / 1e6).toFixed(1)} MB`);
      }
      agent.destroy();
    } finally {
      await platform.stop();
      sink?.close();
    }
  });
}

await main();
