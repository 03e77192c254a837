// npm run bench:pdf — DANFEs per second through the API, beside a bare puppeteer page.pdf() of the same HTML in the
// same run, the renderer's memory, and the latency of a cached PDF. Every app is a real process (simulator, issuer,
// gateway, pdf-renderer with PDF_RENDERER_PAGES=4) on a scratch database of its own.
//   1. through the API: BENCH_CONCURRENCY (4) clients, each owning one authorized NF-e, loop "touch the invoice's
//      updated_at (a new document version, as a cancellation would make) → GET /invoices/{key}/pdf": every GET is a
//      render (gateway → pdf queue → renderer → PostgreSQL → gateway). For a 1-item and a 60-item (3-sheet) DANFE.
//   2. bare: the same HTML (prepareDocument of the same authorized XML) printed by setContent + the paginator +
//      page.pdf() on 4 pages of a Chromium of this process, same concurrency.
//   3. the renderer's memory (its Node process plus Chromium and every child, PSS and summed RSS), peak and at the end.
//   4. a cached PDF: sequential GETs of a stored version, p50/p99.
// Rounds alternate API and bare (best of BENCH_ROUNDS, 3, rounds of BENCH_MS, 5000 ms). Goals (issue 19): ≥ 15 one-page
// PDFs/s, ≥ 85 % of bare; RSS ≤ 400 MB with 4 pages; cached ≤ 5 ms p50.
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import puppeteer, { type Page } from 'puppeteer-core';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { CHROMIUM_FLAGS, PDF_OPTIONS, prepareDocument, processTreeMemory, resolveChromiumPath } from '@talao/rendering';
import { type Platform, startPlatform } from '../e2e/issuance/support/platform.js';
import { withScratchDatabase } from './support/scratch-database.js';

const ROUND_MS = Number(process.env.BENCH_MS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const PAGES = 4;
const CACHED_SAMPLES = 500;

const agent = new Agent({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 16 });

/** The status and size of the answer; the body of an error (a problem document) to say what went wrong. */
function get(url: string, key: string): Promise<{ status: number; bytes: number; problem?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let bytes = 0;
      const errorBody: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if ((res.statusCode ?? 0) >= 400) errorBody.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, problem: Buffer.concat(errorBody).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function throughput(render: (worker: number) => Promise<unknown>, ms: number): Promise<number> {
  let done = 0;
  const start = performance.now();
  const deadline = start + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < deadline) {
        await render(worker);
        done++;
      }
    }),
  );
  return (done * 1000) / (performance.now() - start);
}

function nfeWithItems(count: number): Record<string, unknown> {
  const body = sampleNfeRequest();
  const [item] = body['items'] as Array<Record<string, unknown>>;
  body['items'] = Array.from({ length: count }, (_, i) => ({
    ...item,
    description: `Produto ${i + 1} de uma nota com muitos itens`,
    product: { ...(item!['product'] as object), code: `SKU-${i + 1}` },
  }));
  return body;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The renderer's process tree (Node + Chromium and its children), and its Node process alone (PSS). */
async function rendererMemory(platform: Platform): Promise<{ rss: number; pss: number; nodePss: number }> {
  const pid = platform.pdfRenderer()?.child.pid;
  const memory = await processTreeMemory(pid);
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  const nodePss = Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  return { rss: memory?.rssBytes ?? 0, pss: memory?.pssBytes ?? 0, nodePss };
}

async function measure(platform: Platform, key: string, items: number, bare: Page[]): Promise<void> {
  const invoices: Array<{ id: string; accessKey: string; xml: string }> = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const answer = await platform.api('POST', '/api/v1/invoices', { key, body: nfeWithItems(items) });
    if (answer.status !== 201) throw new Error(`issuing: ${answer.status} ${JSON.stringify(answer.body)}`);
    const row = await platform.prisma.invoice.findUniqueOrThrow({ where: { id: String(answer.body['invoice_id']) } });
    invoices.push({ id: row.id, accessKey: row.accessKey!, xml: row.authorizedXml! });
  }
  const prepared = prepareDocument(invoices[0]!.xml);
  const viaApi = async (worker: number) => {
    const invoice = invoices[worker]!;
    await platform.prisma.$executeRaw`UPDATE invoices SET updated_at = clock_timestamp() WHERE id = ${invoice.id}::uuid`;
    const answer = await get(`${platform.gatewayUrl}/api/v1/invoices/${invoice.accessKey}/pdf?document_type=nfe`, key);
    if (answer.status !== 200) {
      const logged = [...platform.gateway().output.slice(-5), ...(platform.pdfRenderer()?.output.slice(-5) ?? [])];
      throw new Error(`GET pdf answered ${answer.status} ${answer.problem}\n${logged.join('')}`);
    }
  };
  const viaBare = async (worker: number) => {
    const page = bare[worker % bare.length]!;
    await page.setContent(prepared.html, { waitUntil: 'load' });
    if (prepared.paginate) await page.evaluate(prepared.paginate);
    await page.pdf(PDF_OPTIONS);
  };
  await throughput(viaApi, 1_000); // warm-up
  await throughput(viaBare, 1_000);
  let peak = { rss: 0, pss: 0, nodePss: 0 };
  const sampler = setInterval(() => {
    void rendererMemory(platform).then(
      (m) => (peak = { rss: Math.max(peak.rss, m.rss), pss: Math.max(peak.pss, m.pss), nodePss: Math.max(peak.nodePss, m.nodePss) }),
    );
  }, 250);
  let apiBest = 0;
  let bareBest = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const api = await throughput(viaApi, ROUND_MS);
    const plain = await throughput(viaBare, ROUND_MS);
    apiBest = Math.max(apiBest, api);
    bareBest = Math.max(bareBest, plain);
    console.log(`  ${items} item(s), round ${round}: API ${api.toFixed(1)} PDFs/s, bare page.pdf() ${plain.toFixed(1)} PDFs/s`);
  }
  clearInterval(sampler);
  const end = await rendererMemory(platform);
  console.log(`${items}-item DANFE, ${CONCURRENCY} clients, best of ${ROUNDS} rounds of ${ROUND_MS} ms:`);
  console.log(`  through the API (touch + GET, a render each) : ${apiBest.toFixed(1)} PDFs/s${items === 1 ? '   (goal ≥ 15)' : ''}`);
  console.log(`  bare setContent + page.pdf()                 : ${bareBest.toFixed(1)} PDFs/s`);
  console.log(`  API / bare                                   : ${((apiBest / bareBest) * 100).toFixed(0)} %   (goal ≥ 85 %)`);
  console.log(`  renderer process tree (Node + Chromium, ${PAGES} pages), PSS: peak ${mb(peak.pss)}, end ${mb(end.pss)}   (goal ≤ 400 MB)`);
  console.log(
    `    of which the Node process: peak ${mb(peak.nodePss)}, end ${mb(end.nodePss)}; Chromium alone at the end ${mb(end.pss - end.nodePss)}`,
  );
  console.log(`    summed RSS (shared pages counted once per process): peak ${mb(peak.rss)}, end ${mb(end.rss)}`);

  if (items !== 1) return;
  const url = `${platform.gatewayUrl}/api/v1/invoices/${invoices[0]!.accessKey}/pdf?document_type=nfe`;
  await get(url, key); // stored now
  // Beside it, interleaved, the gateway's cheapest authenticated route (GET /me): what any request costs here
  // (authentication, rate limit, logging), so the PDF route's own share shows on a loaded machine.
  const floorUrl = `${platform.gatewayUrl}/api/v1/me`;
  const latencies: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < CACHED_SAMPLES; i++) {
    let started = performance.now();
    const answer = await get(url, key);
    latencies.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`cached GET answered ${answer.status} ${answer.problem}`);
    started = performance.now();
    const me = await get(floorUrl, key);
    floor.push(performance.now() - started);
    if (me.status !== 200) throw new Error(`GET /me answered ${me.status} ${me.problem}`);
  }
  latencies.sort((a, b) => a - b);
  floor.sort((a, b) => a - b);
  console.log(
    `cached PDF (${CACHED_SAMPLES} sequential GETs): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms   (goal p50 ≤ 5 ms)`,
  );
  console.log(
    `  GET /me in the same run (the floor of any authenticated request): p50 ${percentile(floor, 50).toFixed(1)} ms, p99 ${percentile(floor, 99).toFixed(1)} ms`,
  );
}

async function main(): Promise<void> {
  await withScratchDatabase('talao_bench_pdf', async (databaseUrl) => {
    process.env.DATABASE_URL = databaseUrl;
    const platform = await startPlatform('bench-pdf', {
      issuerEnv: { LOG_LEVEL: 'warn' },
      // A render waited for longer than the default 10 s on a loaded machine would be a 503, not a slower figure.
      gatewayEnv: {
        LOG_LEVEL: 'warn',
        RATE_LIMIT_GET_INVOICE_PDF: '1000000',
        RATE_LIMIT_CREATE_INVOICE: '1000000',
        PDF_WAIT_MS: '60000',
        RATE_LIMIT_GET_ME: '1000000',
      },
      pdfRendererEnv: { LOG_LEVEL: 'warn', PDF_RENDERER_PAGES: String(PAGES), PDF_RENDERER_CONCURRENCY: String(PAGES) },
    });
    const browser = await puppeteer.launch({
      executablePath: resolveChromiumPath(),
      headless: true,
      pipe: true,
      args: [...CHROMIUM_FLAGS],
    });
    try {
      const company = await platform.createCompany();
      const bare = await Promise.all(Array.from({ length: PAGES }, () => browser.newPage()));
      await measure(platform, company.homologationKey, 1, bare);
      await measure(platform, company.homologationKey, 60, bare);
      console.log(
        `load average at the end: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${availableParallelism()} cores`,
      );
    } finally {
      agent.destroy();
      await browser.close();
      await platform.stop();
    }
  });
}

await main();
