// npm run bench:amendments — NF-e cancellations per second through the whole platform: HTTP POST
// /api/v1/invoices/{access_key}/cancel on the gateway (auth, rate limit, local checks, the amendment row, BullMQ) →
// the canceller process (sign the event, XSD-validate, store the exact bytes, transmit over mTLS) → the simulator →
// the one deciding statement → the gateway's answer (200). Beside it, in the same run and on the same documents'
// kind, two simulator-direct baselines at the same concurrency: what an integrator calling SEFAZ itself would run (build,
// sign and XSD-validate each event, send it with SefazClient: the like-for-like baseline of the goal) and the transport
// alone (the same events signed beforehand).
// BENCH_CANCELLATIONS (400) per path, BENCH_CONCURRENCY (16) clients, after BENCH_WARMUP (50) unmeasured ones per path
// (the JIT tiers code up by calls: a process fresh from start runs its first hundreds on baseline code). Goal (issue
// 16): the HTTP path at ≥ 70% of the direct one that signs. Beside each path: the CPU it cost per cancellation in each process
// (bench/support/process-cpu.ts; Redis and the server-wide PostgreSQL processes are shared with whatever else runs on
// the machine), and for the HTTP path the median of each step's wall-clock time (bench/support/amendment-timeline.ts).
// BENCH_AUTHORIZER_LATENCY_MS (0) makes the simulator take that long to answer every call of the measured paths (its
// latency fault), as SEFAZ and Sefin do: at 0 the run shows what the platform costs in CPU on this machine; with an
// authorizer's answer time, whether the platform keeps up with the authorizer (the canceller's concurrency is the
// clients', BENCH_CANCELLER_CONCURRENCY to change it).
// BENCH_PROFILE_DIR=<dir> runs the gateway and the canceller with --cpu-prof into that folder (written at stop);
// BENCH_NODE_OPTIONS adds node options to both.
import { Agent } from 'node:http';
import { MutualTlsAgentPool, SefazClient } from '@talao/authorizer-clients';
import { CertificateCache } from '@talao/authorizer-exchange';
import { buildCancellationEvent, signValidateEventLot, stateUtcOffset } from '@talao/fiscal-xml';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startPlatform } from '../e2e/issuance/support/platform.js';
import { type ClientMarks, describeCancellationTimeline } from './support/amendment-timeline.js';
import { cpuByProcess, describeCpuPerDocument } from './support/process-cpu.js';
import { postJson } from './support/post-json.js';
import { withScratchDatabase } from './support/scratch-database.js';
import { percentile } from './support/percentile.js';

const COUNT = Number(process.env.BENCH_CANCELLATIONS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);
const AUTHORIZER_LATENCY_MS = Number(process.env.BENCH_AUTHORIZER_LATENCY_MS ?? 0);
const REASON = 'Pedido cancelado pelo cliente antes da entrega';

/** Runs `items` through `work` with CONCURRENCY workers; per second, p50 and p99 of the successful ones. */
async function measure<T>(items: T[], work: (item: T) => Promise<boolean>) {
  let next = 0;
  let failures = 0;
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        const t0 = performance.now();
        if (await work(item)) latencies.push(performance.now() - t0);
        else failures++;
      }
    }),
  );
  const elapsed = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (latencies.length * 1000) / elapsed,
    done: latencies.length,
    failures,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const describe = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
  `  ${name}: ${r.perSecond.toFixed(1)} cancellations/s (${r.done} done, ${r.failures} failed), p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`;

await withScratchDatabase('talao_bench', async (databaseUrl) => {
  process.env.DATABASE_URL = databaseUrl;
  const database = new URL(databaseUrl).pathname.slice(1);
  const nodeOptions = [
    ...(process.env.BENCH_PROFILE_DIR ? [`--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
    ...(process.env.BENCH_NODE_OPTIONS ? [process.env.BENCH_NODE_OPTIONS] : []),
  ];
  const profiling: Record<string, string> = nodeOptions.length > 0 ? { NODE_OPTIONS: nodeOptions.join(' ') } : {};
  const platform = await startPlatform('bench-amendments', {
    canceller: true,
    cancellerEnv: {
      CANCELLER_CONCURRENCY: process.env.BENCH_CANCELLER_CONCURRENCY ?? String(CONCURRENCY),
      LOG_LEVEL: 'warn',
      ...profiling,
    },
    issuerEnv: { LOG_LEVEL: 'warn' },
    gatewayEnv: {
      ...profiling,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_CREATE_INVOICE: '1000000',
      RATE_LIMIT_CANCEL_INVOICE: '1000000',
      QUEUE_AMENDMENTS_BACKOFF_MS: '100',
    },
  });
  const agents = new MutualTlsAgentPool({ caBundlePem: platform.sim.caCertificatePem, maxSockets: CONCURRENCY });
  const http = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const company = await platform.createCompany();
    const auth = { authorization: `Bearer ${company.homologationKey}` };
    const gateway = new URL(platform.gatewayUrl);
    // The documents: 2 × (WARMUP + COUNT) issued NF-e (half for each path), created through the API.
    const perPath = WARMUP + COUNT;
    const documents: Array<{ accessKey: string; protocol: string }> = [];
    // On a loaded machine an issuance may outlast the gateway's wait (202): those are left aside and more are issued.
    for (let round = 0; round < 3 && documents.length < 3 * perPath; round++)
      await measure(
        Array.from({ length: 3 * perPath - documents.length }, (_, i) => i),
        async () => {
          const answer = await postJson(http, new URL('/api/v1/invoices', gateway), auth, JSON.stringify(sampleNfeRequest()));
          if (answer.status !== 201) return false;
          const body = JSON.parse(answer.text) as { access_key: string; protocol: string };
          documents.push({ accessKey: body.access_key, protocol: body.protocol });
          return true;
        },
      );
    if (documents.length < 3 * perPath) throw new Error(`only ${documents.length} of ${3 * perPath} documents issued`);
    const direct = documents.slice(0, perPath);
    const signedAtSend = documents.slice(perPath, 2 * perPath);
    const viaHttp = documents.slice(2 * perPath);

    // Direct: the company's certificate, the event built, signed and validated here, SefazClient → simulator.
    const stored = await platform.certificates.findActive(company.id);
    if (!stored) throw new Error('the company has no certificate');
    const loaded = new CertificateCache().load(stored.id, stored.pkcs12, stored.password);
    const companyRow = await platform.prisma.company.findUniqueOrThrow({ where: { id: company.id } });
    const sefaz = new SefazClient({ agents, baseUrlOverrides: { homologation: platform.sim.baseUrl } });
    const ctx = { credentials: loaded.credentials, environment: 'homologation' as const, uf: companyRow.state, contingency: false };
    const eventLot = (document: { accessKey: string; protocol: string }, i: number) =>
      signValidateEventLot(
        String(i + 1),
        [
          buildCancellationEvent({
            environment: 'homologation',
            author: { cnpj: companyRow.taxId },
            accessKey: document.accessKey,
            eventAt: new Date(),
            utcOffset: stateUtcOffset(companyRow.state),
            protocol: document.protocol,
            justification: REASON,
          }),
        ],
        loaded.signer,
        'envEventoCancNFe',
      );
    const lots = direct.map(eventLot);
    // The documents are issued at full speed; the authorizer's answer time applies to the cancellations only.
    if (AUTHORIZER_LATENCY_MS > 0) {
      const set = await platform.sim.control('PUT', '/_control/faults/*', { latencyMs: AUTHORIZER_LATENCY_MS });
      if (set.status !== 200) throw new Error(`the simulator refused the latency: ${set.status} ${JSON.stringify(set.json)}`);
    }
    console.log(
      `amendments bench: ${COUNT} NF-e cancellations per path after ${WARMUP} unmeasured, concurrency ${CONCURRENCY}` +
        `${AUTHORIZER_LATENCY_MS > 0 ? `, the authorizer answering in ${AUTHORIZER_LATENCY_MS} ms` : ''}` +
        `${nodeOptions.length > 0 ? ` (gateway and canceller with NODE_OPTIONS ${nodeOptions.join(' ')})` : ''}`,
    );
    const sendDirect = async (envEvento: string) => (await sefaz.prepareEvent(ctx, { envEvento }).send()).status === 'accepted';
    await measure(lots.slice(0, WARMUP), sendDirect);
    const directCpu = cpuByProcess(database);
    const baseline = await measure(lots.slice(WARMUP), sendDirect);
    console.log(describe('simulator direct, transport alone (SefazClient, events signed beforehand)', baseline));
    console.log(`    CPU per cancellation: ${describeCpuPerDocument(directCpu, cpuByProcess(database), baseline.done)}`);
    const signAndSend = (item: { document: { accessKey: string; protocol: string }; i: number }) =>
      sendDirect(eventLot(item.document, item.i));
    const numbered = signedAtSend.map((document, i) => ({ document, i }));
    await measure(numbered.slice(0, WARMUP), signAndSend);
    const signingCpu = cpuByProcess(database);
    const signing = await measure(numbered.slice(WARMUP), signAndSend);
    console.log(describe('simulator direct, signed at send (build, sign, XSD-validate, send)', signing));
    console.log(`    CPU per cancellation: ${describeCpuPerDocument(signingCpu, cpuByProcess(database), signing.done)}`);

    const clientMarks: ClientMarks[] = [];
    const cancel = async (document: { accessKey: string }) => {
      const sentAt = performance.timeOrigin + performance.now();
      const answer = await postJson(
        http,
        new URL(`/api/v1/invoices/${document.accessKey}/cancel`, gateway),
        auth,
        JSON.stringify({ reason: REASON }),
      );
      clientMarks.push({ accessKey: document.accessKey, sentAt, answeredAt: performance.timeOrigin + performance.now() });
      return answer.status === 200;
    };
    await measure(viaHttp.slice(0, WARMUP), cancel);
    clientMarks.length = 0;
    const httpCpu = cpuByProcess(database);
    const throughApi = await measure(viaHttp.slice(WARMUP), cancel);
    console.log(describe('HTTP API (gateway → queue → canceller → simulator)', throughApi));
    console.log(`    CPU per cancellation: ${describeCpuPerDocument(httpCpu, cpuByProcess(database), throughApi.done)}`);
    console.log('  HTTP path, where a cancellation’s time went (medians):');
    for (const line of await describeCancellationTimeline(platform.prisma, platform.redis, company.id, clientMarks))
      console.log(`    ${line}`);
    const percentOf = (direct: { perSecond: number }) => ((100 * throughApi.perSecond) / direct.perSecond).toFixed(0);
    console.log(
      `  HTTP path at ${percentOf(signing)}% of the direct path that signs (goal ≥ 70%), ${percentOf(baseline)}% of the transport alone`,
    );
  } finally {
    agents.destroy();
    http.destroy();
    await platform.stop();
  }
});
