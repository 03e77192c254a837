// npm run soak [-- --minutes 30 --rate 100] — the platform at a steady offered load for a long time (issue 21), not
// in CI: every app as a real process (e2e/chaos/support/chaos-platform.ts, without faults or kills), an integrator's
// mix (INTEGRATOR_WEIGHTS of e2e/chaos/support/mixed-load.ts: mostly lists, reads and PDFs around every write — issue
// NF-e and NFS-e, cancel, correct, invalidate, sync received, manifest — with webhooks to a local receiver) offered
// open loop at --rate requests/s for --minutes, on a scratch database and a Redis prefix of its own.
// Prints, every --sample-seconds (10), the RSS of every app's process tree (the pdf-renderer's Chromium included)
// and, per window of the run (a tenth of it, at least a minute when it lasts ten), the p50/p99 of the answers; at the
// end the RSS slope of each app (least squares over the run after its first fifth, MB per minute, and the total over
// that stretch) and the p99 slope (ms per minute). A leak shows as a slope that does not go to zero with a longer run.
import { setTimeout as sleep } from 'node:timers/promises';
import { processTreeMemory } from '@talao/rendering';
import { startWebhookReceiver } from '@talao/webhooks/testing';
import { type AppName, startChaosPlatform } from '../e2e/chaos/support/chaos-platform.js';
import { INTEGRATOR_WEIGHTS, MixedLoad, statusHistogram } from '../e2e/chaos/support/mixed-load.js';
import { cpuByProcess, describeCpuPerDocument } from './support/process-cpu.js';
import { withScratchDatabase } from './support/scratch-database.js';
import { percentile } from './support/percentile.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name}: expected a positive number`);
  return value;
}

const MINUTES = option('minutes', 30);
const RATE = option('rate', 100);
const SAMPLE_MS = option('sample-seconds', 10) * 1_000;
/** Requests in flight beyond which the offered load is not sent (counted as skipped): the client must not snowball. */
const MAX_IN_FLIGHT = 400;

/**
 * RSS (bytes) of the app's process and every process it started (the pdf-renderer's Chromium: puppeteer starts it in
 * a process group of its own, so the app's group alone would leave it out).
 */
async function treeRss(pid: number): Promise<number> {
  return (await processTreeMemory(pid))?.rssBytes ?? 0;
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
}

async function main(): Promise<void> {
  await withScratchDatabase('talao_soak', async (databaseUrl) => {
    process.env.DATABASE_URL = databaseUrl;
    const p = await startChaosPlatform('soak', { logLevel: 'error' });
    const receiver = await startWebhookReceiver();
    try {
      const companies = [await p.createCompany(), await p.createCompany()];
      for (const c of companies) {
        await p.api('POST', '/api/v1/webhooks', c.key, {
          url: `${receiver.origin}/${c.taxId}`,
          secret: 'whsec_soak_0123456789abcdef',
          events: [],
        });
        await p.control('POST', '/_control/third-party-documents', { recipientTaxId: c.taxId, environment: 'homologation', count: 20 });
      }
      // The receiver keeps only a count: a soak must not measure its own memory.
      let webhooks = 0;
      receiver.respond = (res) => {
        webhooks += 1;
        receiver.received.length = 0;
        res.writeHead(200).end('ok');
      };
      const load = new MixedLoad(p, companies, { weights: INTEGRATOR_WEIGHTS, bodies: 'errors' });
      const pids = p.pids();
      const rss: Record<string, Array<[number, number]>> = Object.fromEntries(Object.keys(pids).map((app) => [app, []]));
      const database = new URL(databaseUrl).pathname.slice(1);
      const cpuAtStart = cpuByProcess(database);
      const started = Date.now();
      const ends = started + MINUTES * 60_000;
      let inFlight = 0;
      let skipped = 0;
      let failed = 0;

      const sampler = (async () => {
        while (Date.now() < ends) {
          const minute = (Date.now() - started) / 60_000;
          for (const [app, pid] of Object.entries(pids)) rss[app]!.push([minute, (await treeRss(pid)) / 2 ** 20]);
          const last = Object.entries(rss).map(([app, points]) => `${app} ${points.at(-1)![1].toFixed(0)}`);
          const recent = load.answers
            .filter((a) => a.at >= Date.now() - SAMPLE_MS)
            .map((a) => a.ms)
            .sort((a, b) => a - b);
          console.log(
            `${minute.toFixed(1)} min  ${(recent.length / (SAMPLE_MS / 1000)).toFixed(0)} req/s  p99 ${percentile(recent, 99)} ms  in flight ${inFlight}  RSS MB: ${last.join(', ')}`,
          );
          await sleep(SAMPLE_MS);
        }
      })();
      // Open loop: one operation every 1/RATE s, whatever the answers take.
      for (let next = Date.now(); next < ends; next += 1_000 / RATE) {
        const wait = next - Date.now();
        if (wait > 0) await sleep(wait);
        if (inFlight >= MAX_IN_FLIGHT) {
          skipped += 1;
          continue;
        }
        inFlight += 1;
        void load
          .one()
          .catch(() => (failed += 1))
          .finally(() => (inFlight -= 1));
      }
      await sampler;
      while (inFlight > 0) await sleep(100);
      report({ load, rss, started, skipped, failed, webhooks });
      console.log(`\nCPU per answer over the run: ${describeCpuPerDocument(cpuAtStart, cpuByProcess(database), load.answers.length)}`);
      const errors = Object.keys(pids).flatMap((app) =>
        p
          .output(app as AppName)
          .filter((line) => /"level":"(error|fatal)"/.test(line))
          .slice(0, 3),
      );
      if (errors.length > 0) console.log(`\nfirst errors the apps logged:\n${errors.join('')}`);
    } finally {
      await receiver.close();
      await p.stop();
    }
  });
}

function report(run: {
  load: MixedLoad;
  rss: Record<string, Array<[number, number]>>;
  started: number;
  skipped: number;
  failed: number;
  webhooks: number;
}): void {
  const { answers } = run.load;
  const minutes = (Date.now() - run.started) / 60_000;
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  console.log(
    `\nsoak: ${minutes.toFixed(1)} min, ${answers.length} answers (${(answers.length / (minutes * 60)).toFixed(1)}/s offered ${RATE}/s), ` +
      `${run.skipped} not sent (over ${MAX_IN_FLIGHT} in flight), ${run.failed} connection failures, ${run.webhooks} webhook requests`,
  );
  console.log(`statuses: ${JSON.stringify(statuses)}`);
  console.log('per operation (statuses; p50 / p99 of the answers):');
  for (const [operation, histogram] of Object.entries(statusHistogram(answers))) {
    const times = answers
      .filter((a) => a.operation === operation)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
    console.log(`  ${operation.padEnd(14)} ${JSON.stringify(histogram)}  ${percentile(times, 50)} / ${percentile(times, 99)} ms`);
  }
  const failures: Record<string, unknown> = {};
  for (const a of answers) if (a.status >= 500 && a.status !== 503) failures[`${a.operation} ${a.status}`] ??= a.body;
  if (Object.keys(failures).length > 0) console.log(`first answer of each 5xx kind: ${JSON.stringify(failures)}`);

  console.log('\nRSS per app (its process tree), after the first fifth of the run:');
  for (const [app, points] of Object.entries(run.rss)) {
    const steady = points.filter(([minute]) => minute >= minutes / 5);
    const first = steady[0]?.[1] ?? 0;
    const last = steady.at(-1)?.[1] ?? 0;
    console.log(
      `  ${app.padEnd(20)} ${first.toFixed(0).padStart(5)} → ${last.toFixed(0).padStart(5)} MB   slope ${slope(steady).toFixed(2).padStart(7)} MB/min`,
    );
  }

  const windows = Math.max(1, Math.min(10, Math.floor(minutes)));
  const windowMs = (minutes * 60_000) / windows;
  const p99s: Array<[number, number]> = [];
  console.log(
    `\nlatency per window of ${(windowMs / 60_000).toFixed(1)} min (all operations; PDF waits for its render up to PDF_WAIT_MS):`,
  );
  for (let w = 0; w < windows; w++) {
    const inWindow = answers
      .filter((a) => a.at >= run.started + w * windowMs && a.at < run.started + (w + 1) * windowMs)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
    const p99 = percentile(inWindow, 99);
    p99s.push([((w + 0.5) * windowMs) / 60_000, p99]);
    console.log(`  window ${w + 1}: ${inWindow.length} answers  p50 ${percentile(inWindow, 50)} ms  p99 ${p99} ms`);
  }
  console.log(`p99 slope: ${slope(p99s).toFixed(1)} ms/min`);
}

await main();
