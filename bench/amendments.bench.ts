// npm run bench:amendments — NF-e cancellations per second through the whole platform: HTTP POST
// /api/v1/invoices/{access_key}/cancel on the gateway (auth, rate limit, local checks, the amendment row, BullMQ) →
// the canceller process (sign the event, XSD-validate, store the exact bytes, transmit over mTLS) → the simulator →
// the one deciding statement → the gateway's answer (200). Beside it, in the same run and on the same documents'
// kind, the simulator-direct baseline: pre-signed cancellation events sent with SefazClient at the same concurrency.
// BENCH_CANCELLATIONS (400) per path, BENCH_CONCURRENCY (16) clients. Goal (issue 16): the HTTP path at ≥ 70% of
// the direct one.
import { Agent } from 'node:http';
import { MutualTlsAgentPool, SefazClient } from '@talao/authorizer-clients';
import { CertificateCache } from '@talao/authorizer-exchange';
import { buildCancellationEvent, signValidateEventLot, stateUtcOffset } from '@talao/fiscal-xml';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startPlatform } from '../e2e/issuance/support/platform.js';
import { postJson } from './support/post-json.js';
import { withScratchDatabase } from './support/scratch-database.js';

const COUNT = Number(process.env.BENCH_CANCELLATIONS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const REASON = 'Pedido cancelado pelo cliente antes da entrega';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

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
  const platform = await startPlatform('bench-amendments', {
    canceller: true,
    cancellerEnv: { CANCELLER_CONCURRENCY: String(CONCURRENCY), LOG_LEVEL: 'warn' },
    issuerEnv: { LOG_LEVEL: 'warn' },
    gatewayEnv: {
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
    // The documents: 2 × COUNT issued NF-e (half for each path), created through the API.
    const documents: Array<{ accessKey: string; protocol: string }> = [];
    const issued = await measure(
      Array.from({ length: 2 * COUNT }, (_, i) => i),
      async () => {
        const answer = await postJson(http, new URL('/api/v1/invoices', gateway), auth, JSON.stringify(sampleNfeRequest()));
        if (answer.status !== 201) return false;
        const body = JSON.parse(answer.text) as { access_key: string; protocol: string };
        documents.push({ accessKey: body.access_key, protocol: body.protocol });
        return true;
      },
    );
    if (issued.done < 2 * COUNT) throw new Error(`only ${issued.done} of ${2 * COUNT} documents issued`);
    const direct = documents.slice(0, COUNT);
    const viaHttp = documents.slice(COUNT);

    // Direct: the company's certificate, every event signed and validated beforehand, SefazClient → simulator.
    const stored = await platform.certificates.findActive(company.id);
    if (!stored) throw new Error('the company has no certificate');
    const loaded = new CertificateCache().load(stored.id, stored.pkcs12, stored.password);
    const companyRow = await platform.prisma.company.findUniqueOrThrow({ where: { id: company.id } });
    const sefaz = new SefazClient({ agents, baseUrlOverrides: { homologation: platform.sim.baseUrl } });
    const ctx = { credentials: loaded.credentials, environment: 'homologation' as const, uf: companyRow.state, contingency: false };
    const lots = direct.map((document, i) =>
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
      ),
    );
    console.log(`amendments bench: ${COUNT} NF-e cancellations per path, concurrency ${CONCURRENCY}`);
    const baseline = await measure(lots, async (envEvento) => (await sefaz.prepareEvent(ctx, { envEvento }).send()).status === 'accepted');
    console.log(describe('simulator direct (SefazClient, pre-signed events)', baseline));

    const throughApi = await measure(viaHttp, async (document) => {
      const answer = await postJson(
        http,
        new URL(`/api/v1/invoices/${document.accessKey}/cancel`, gateway),
        auth,
        JSON.stringify({ reason: REASON }),
      );
      return answer.status === 200;
    });
    console.log(describe('HTTP API (gateway → queue → canceller → simulator)', throughApi));
    // Where an HTTP cancellation's time went (medians, ms): filed → its event stored before sending (queue pickup,
    // loading, signing, validating), stored → answered (the simulator), answered → decided.
    const [split] = await platform.prisma.$queryRawUnsafe<Array<Record<string, number>>>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM s.sent_at - a.created_at) * 1000) AS to_sent,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM s.answered_at - s.sent_at) * 1000) AS at_authorizer,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.registered_at - s.answered_at) * 1000) AS to_decided
       FROM amendments a JOIN submissions s ON s.amendment_id = a.id WHERE a.company_id = $1::uuid`,
      company.id,
    );
    console.log(
      `  HTTP path, medians: filed → event stored ${Number(split?.to_sent).toFixed(1)} ms, at the simulator ${Number(split?.at_authorizer).toFixed(1)} ms, ` +
        `answered → decided ${Number(split?.to_decided).toFixed(1)} ms`,
    );
    console.log(`  HTTP path at ${((100 * throughApi.perSecond) / baseline.perSecond).toFixed(0)}% of the direct path (goal ≥ 70%)`);
  } finally {
    agents.destroy();
    http.destroy();
    await platform.stop();
  }
});
