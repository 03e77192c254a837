// npm run bench:authorizer — authorizations per second of SefazClient + the authorizer simulator on this machine:
// the simulator runs as a real process (mTLS, SOAP 1.2, XSD validation, signature verification, every NF-e rule),
// the client sends pre-signed NF-e (signing is measured by bench:xml) at concurrency 1 and 8, the same number of
// documents at each level (a fixed amount of work, timed: a time budget over a fixed pool ran the pool dry on a fast
// machine and left the second level nothing to send). Prints throughput and latency percentiles: the baseline the
// end-to-end issuance benchmark compares with. Not part of `npm test`.
import { MutualTlsAgentPool, SefazClient, type SefazCallContext } from '@talao/authorizer-clients';
import { signedFixture } from '../e2e/authorizers/support/nfe-fixture.js';
import { startSimulator } from '../e2e/authorizers/support/simulator-process.js';
import { issueCompanyCertificate } from '../e2e/authorizers/support/test-companies.js';

const PER_LEVEL = Number(process.env.BENCH_AUTHORIZATIONS ?? 4000);
const CNPJ = '11222333000181';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const sim = await startSimulator();
  const agents = new MutualTlsAgentPool({ caBundlePem: sim.caCertificatePem, maxSockets: 16 });
  try {
    const certificate = await issueCompanyCertificate(sim, CNPJ);
    const client = new SefazClient({ agents, baseUrlOverrides: { homologation: sim.baseUrl } });
    const ctx: SefazCallContext = { credentials: certificate, environment: 'homologation', uf: 'SP' };
    let number = 1;
    // Signed ahead of time, outside the measured window, so the figure is transport + simulator only. Every document
    // needs a number of its own: the simulator refuses a second one with the same access key.
    const signBatch = (count: number) =>
      Array.from({ length: count }, () => signedFixture(certificate, { cnpj: CNPJ, number: number++ }).signedNfe);
    for (const signedNfe of signBatch(20)) await client.authorize(ctx, { signedNfe, lotId: '1' }); // warm-up

    console.log(`authorizer bench: SefazClient → simulator (mTLS, SOAP 1.2, 2-item NF-e), ${PER_LEVEL} authorizations per level`);
    for (const concurrency of [1, 8]) {
      const pool = signBatch(PER_LEVEL);
      let next = 0;
      const latencies: number[] = [];
      let failures = 0;
      const start = performance.now();
      const worker = async () => {
        while (next < pool.length) {
          const signedNfe = pool[next++] as string;
          const t0 = performance.now();
          const outcome = await client.authorize(ctx, { signedNfe, lotId: '1' });
          latencies.push(performance.now() - t0);
          if (outcome.status !== 'authorized') failures++;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const elapsed = performance.now() - start;
      latencies.sort((a, b) => a - b);
      console.log(
        `  concurrency ${concurrency}: ${((latencies.length * 1000) / elapsed).toFixed(1)} authorizations/s ` +
          `(${latencies.length} in ${(elapsed / 1000).toFixed(1)} s, not authorized: ${failures}), ` +
          `latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
      );
    }
  } finally {
    agents.destroy();
    await sim.stop();
  }
}

await main();
