// The engine on a real Chromium: nothing leaves the page (a local server sees no request whatever the HTML asks for),
// pages are retired after their render budget, a killed Chromium — or one that stopped answering — is relaunched and
// the renders in flight complete, a browser at its age is replaced without a failed render and never runs beside its
// successor, and the browser's memory is readable.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PdfEngine } from '../index.js';
import { PdfInspection } from '../testing/index.js';

const PAGE = (body: string) => `<!DOCTYPE html><html><head><style>@page { size: A4; margin: 0 }</style></head><body>${body}</body></html>`;
const ONE_PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=';

function pagesOf(pdf: Buffer): number {
  const inspection = new PdfInspection(pdf);
  try {
    return inspection.pageCount();
  } finally {
    inspection.dispose();
  }
}

/** After a recovery: a browser other than the first was launched, and it prints. */
async function expectRelaunchedAndPrinting(engine: PdfEngine, firstPid: number | undefined): Promise<void> {
  expect(engine.stats.launches).toBeGreaterThanOrEqual(2);
  expect(engine.browserPid).not.toBe(firstPid);
  expect(pagesOf((await engine.render(PAGE('<p>after</p>'))).pdf)).toBe(1);
}

describe('PdfEngine on Chromium', () => {
  let engine: PdfEngine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  }, 30_000);

  it('denies every network request: images, styles, scripts, fonts, fetch and iframes never reach a server', async () => {
    let hits = 0;
    const server: Server = createServer((_req, res) => {
      hits++;
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      engine = await PdfEngine.launch({ pages: 1 });
      const html = PAGE(
        `<link rel="stylesheet" href="${origin}/style.css"><style>@font-face { font-family: X; src: url(${origin}/font.woff2) } p { font-family: X }</style>` +
          `<img src="${origin}/logo.png"><img src="${ONE_PIXEL}"><iframe src="${origin}/frame"></iframe><script src="${origin}/script.js"></script>` +
          `<script>fetch('${origin}/fetch').catch(() => {}); new Image().src = '${origin}/beacon';</script><p>DANFE</p>`,
      );
      const result = await engine.render(html, 'new Promise((resolve) => setTimeout(() => resolve(1), 300))');
      expect(pagesOf(result.pdf)).toBe(1);
      expect(hits).toBe(0);
      expect(engine.stats.blockedRequests).toBeGreaterThanOrEqual(5);
    } finally {
      server.close();
    }
  }, 60_000);

  it('retires a page after its render budget and opens a fresh one', async () => {
    engine = await PdfEngine.launch({ pages: 1, rendersPerPage: 3 });
    for (let i = 0; i < 7; i++) expect(pagesOf((await engine.render(PAGE(`<p>render ${i}</p>`))).pdf)).toBe(1);
    expect(engine.stats.renders).toBe(7);
    expect(engine.stats.pagesRecycled).toBe(2);
    expect(engine.stats.pagesCreated).toBe(3);
  }, 60_000);

  it('Chromium killed mid-render: relaunched, and every render in flight completes once retried', async () => {
    engine = await PdfEngine.launch({ pages: 2 });
    const firstPid = engine.browserPid;
    expect(firstPid).toBeGreaterThan(0);
    // Each render waits 1.5 s inside the page, so all three are in flight when the browser dies.
    const slow = 'new Promise((resolve) => setTimeout(() => resolve(1), 1500))';
    const renders = [1, 2, 3].map((n) => engine!.render(PAGE(`<h1>DOCUMENTO ${n}</h1>`), slow));
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(firstPid as number, 'SIGKILL');
    const results = await Promise.all(renders);
    results.forEach((result, i) => {
      const inspection = new PdfInspection(result.pdf);
      expect(inspection.text(1)).toContain(`DOCUMENTO ${i + 1}`);
      inspection.dispose();
    });
    expect(engine.stats.launches).toBe(2);
    expect(engine.stats.retries).toBeGreaterThanOrEqual(2);
    // The relaunched browser keeps serving.
    await expectRelaunchedAndPrinting(engine, firstPid);
  }, 90_000);

  it('Chromium that stops answering (a page blocks it past the render budget): killed, relaunched, and it serves again', async () => {
    engine = await PdfEngine.launch({ pages: 2, renderTimeoutMs: 2_000 });
    const firstPid = engine.browserPid;
    // In one process a page that never yields blocks every page: the other render waits with it (and, retried beside
    // the blocking one on the relaunched browser, may be blocked again: it settles either way).
    const blocked = engine.render(PAGE('<p>blocked</p>'), 'for (;;) {}');
    const bystander = engine.render(PAGE('<p>bystander</p>'), 'new Promise((resolve) => setTimeout(() => resolve(1), 500))');
    // The blocking render is retried once on the relaunched browser, blocks it too, and fails.
    await expect(blocked).rejects.toThrow(/Chromium failed again after recovering/);
    await bystander.catch(() => undefined);
    expect(engine.stats.stuck).toBeGreaterThanOrEqual(1);
    // Without the relaunch every later render would wait forever on the blocked browser.
    await expectRelaunchedAndPrinting(engine, firstPid);
  }, 90_000);

  it('replaces the browser at its age while rendering, in turn: no render fails or is retried, and the old one has exited before the new one serves', async () => {
    engine = await PdfEngine.launch({ pages: 2, maxBrowserAgeMs: 1_500 });
    const firstPid = engine.browserPid as number;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // Watched every 10 ms: whether the first browser still ran when another one was the engine's.
    let overlapped = false;
    const watch = setInterval(() => {
      if (engine?.browserPid !== undefined && engine.browserPid !== firstPid && alive(firstPid)) overlapped = true;
    }, 10);
    const sheets: number[] = [];
    const ends = Date.now() + 4_000;
    try {
      await Promise.all(
        [1, 2, 3].map(async () => {
          while (Date.now() < ends) sheets.push(pagesOf((await engine!.render(PAGE('<p>DANFE</p>'))).pdf));
        }),
      );
    } finally {
      clearInterval(watch);
    }
    expect(engine.stats.browsersReplaced).toBeGreaterThanOrEqual(1);
    expect(engine.stats.retries).toBe(0);
    expect(engine.stats.stuck).toBe(0);
    expect(sheets.length).toBeGreaterThan(10);
    expect(sheets.every((count) => count === 1)).toBe(true);
    expect(engine.browserPid).not.toBe(firstPid);
    expect(alive(firstPid)).toBe(false);
    expect(overlapped).toBe(false);
  }, 60_000);

  it('keeps nothing of a finished render: the PDFs printed are not retained by the engine', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    engine = await PdfEngine.launch({ pages: 2 });
    const html = PAGE('<p>linha de texto de uma nota fiscal com itens</p>'.repeat(400));
    // Each PDF is watched, not measured in the heap (whose size moves by megabytes with whatever else the test worker
    // ran before): a PDF the engine kept stays reachable after a full collection.
    const printed: Array<WeakRef<Buffer>> = [];
    for (let i = 0; i < 60; i++) printed.push(new WeakRef((await engine.render(html)).pdf));
    await new Promise((resolve) => setTimeout(resolve, 50)); // past the job in which the references were made
    gc();
    // Each render used to leave a reaction on the session's long-lived "lost" promise that kept its PDF reachable.
    expect(printed.filter((pdf) => pdf.deref() !== undefined).length).toBeLessThanOrEqual(2);
  }, 120_000);

  it('reports the resident memory of Chromium and its child processes', async () => {
    engine = await PdfEngine.launch({ pages: 2 });
    const memory = await engine.memory();
    expect(memory?.processes).toBeGreaterThanOrEqual(1);
    expect(memory?.rssBytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(memory?.pssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(memory?.pssBytes).toBeLessThanOrEqual(memory?.rssBytes as number);
  }, 60_000);
});
