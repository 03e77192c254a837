// npm run bench:pdf-render — one-page DANFEs per second through libs/rendering's pool (XML read, layout, barcode,
// in-page pagination, print: DocumentRenderer.render) beside a bare puppeteer `setContent` + `page.pdf()` of the same
// HTML on the same number of pages, in the same run; and Chromium's resident memory (browser and all its child
// processes, PSS and summed RSS) during the pooled run. Goals of issue 19: ≥ 15 PDFs/s on the 2-core machine, ≥ 85 % of the bare figure,
// RSS ≤ 400 MB with a pool of 4 pages. (Through the API, with the pdf-renderer app: npm run bench:pdf.)
//
// Rounds alternate pooled and bare and each keeps its best round, so a burst of outside load on the shared machine
// does not favour one side. BENCH_MS sets a round's length (default 5000), BENCH_ROUNDS their number (default 3).
import { availableParallelism, loadavg } from 'node:os';
import puppeteer from 'puppeteer-core';
import { chromiumLaunchOptions, DocumentRenderer, PDF_OPTIONS, prepareDocument, resolveChromiumPath } from '@talao/rendering';
import { authorizedNfe } from '@talao/rendering/testing';
import { closedLoop } from './support/closed-loop.js';

const ROUND_MS = Number(process.env.BENCH_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = 4;

/** Completed renders per second of `render` run by `concurrency` clients for `ms`. */
const throughput = async (render: () => Promise<unknown>, concurrency: number, ms: number) =>
  (await closedLoop(render, concurrency, ms)).perSecond;

const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

async function main(): Promise<void> {
  const document = authorizedNfe();
  const prepared = prepareDocument(document.xml);

  const renderer = await DocumentRenderer.start({ pages: PAGES });
  const bare = await puppeteer.launch(chromiumLaunchOptions(resolveChromiumPath()));
  const barePages = await Promise.all(Array.from({ length: PAGES }, () => bare.newPage()));
  const free = [...barePages];
  const bareRender = async () => {
    const page = free.pop() as (typeof barePages)[number];
    try {
      await page.setContent(prepared.html, { waitUntil: 'load' });
      await page.pdf(PDF_OPTIONS);
    } finally {
      free.push(page);
    }
  };
  const pooledRender = async () => {
    const result = await renderer.render(document.xml);
    if (result.pageCount !== 1) throw new Error(`expected a one-page DANFE, got ${result.pageCount}`);
  };

  // Warm-up: JIT, font caches, the pages' first layout.
  await throughput(pooledRender, PAGES, 1000);
  await throughput(bareRender, PAGES, 1000);

  let peakRss = 0;
  let peakPss = 0;
  const sampler = setInterval(() => {
    void renderer.memory().then((m) => {
      peakRss = Math.max(peakRss, m?.rssBytes ?? 0);
      peakPss = Math.max(peakPss, m?.pssBytes ?? 0);
    });
  }, 250);
  let pooledBest = 0;
  let bareBest = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const pooled = await throughput(pooledRender, PAGES, ROUND_MS);
    const plain = await throughput(bareRender, PAGES, ROUND_MS);
    pooledBest = Math.max(pooledBest, pooled);
    bareBest = Math.max(bareBest, plain);
    console.log(`round ${round}: pooled ${pooled.toFixed(1)} PDFs/s, bare page.pdf() ${plain.toFixed(1)} PDFs/s`);
  }
  clearInterval(sampler);
  const memory = await renderer.memory();

  console.log('');
  console.log(`one-page DANFE, ${PAGES} pages, ${ROUNDS} rounds of ${ROUND_MS} ms (best round of each)`);
  console.log(`  pooled DocumentRenderer.render : ${pooledBest.toFixed(1)} PDFs/s   (goal ≥ 15)`);
  console.log(`  bare setContent + page.pdf()   : ${bareBest.toFixed(1)} PDFs/s`);
  console.log(`  pooled / bare                  : ${((pooledBest / bareBest) * 100).toFixed(0)} %   (goal ≥ 85 %)`);
  console.log(`  Chromium memory, browser + ${(memory?.processes ?? 1) - 1} child processes (goal ≤ 400 MB):`);
  console.log(`    PSS (shared pages counted once): peak ${mb(peakPss)}, at the end ${mb(memory?.pssBytes)}`);
  console.log(`    RSS summed per process          : peak ${mb(peakRss)}, at the end ${mb(memory?.rssBytes)}`);
  console.log(
    `  load average during the run: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`,
  );
  console.log(
    `  renders ${renderer.stats.renders}, pages opened ${renderer.stats.pagesCreated}, pages recycled ${renderer.stats.pagesRecycled}`,
  );

  await bare.close();
  await renderer.close();
}

await main();
