// HTML → PDF on one warm Chromium with a pool of pages. Survives Chromium: when the browser dies (crash, OOM kill)
// it is relaunched at once, in a new profile with a new pool, and each render that was in flight is retried once
// on the new browser; a page whose renderer crashed is discarded and its render retried on another page. A browser
// is also replaced when it reaches its age (see maxBrowserAgeMs): in turn, never two at once.
import { RendererFailedError } from '../errors.js';
import { type BrowserSession as Session, endSession, openSession, RenderTimeoutError, untilLost, withTimeout } from './browser-session.js';
import { resolveChromiumPath } from './chromium.js';
import type { PagePoolCounters, PooledPage } from './page-pool.js';
import { processTreeMemory, type ProcessTreeMemory } from './process-memory.js';

/**
 * How every PDF is printed (the bench's bare baseline prints with the same). A4 comes from the document's @page.
 * `tagged` and `outline` off: Chromium tags PDFs (structure tree for accessibility) and builds an outline by default;
 * the tagging doubles the bytes and costs a good share of page.pdf()'s time, and a DANFE has no headings to outline
 * (the fiscal layout is the document, read by people and by the printed barcode, not by a screen reader).
 */
export const PDF_OPTIONS = { preferCSSPageSize: true, printBackground: true, tagged: false, outline: false } as const;

/** PDF_OPTIONS as the DevTools command takes them (puppeteer's translation), the PDF returned in the answer. */
const PRINT_TO_PDF = {
  transferMode: 'ReturnAsBase64',
  preferCSSPageSize: PDF_OPTIONS.preferCSSPageSize,
  printBackground: PDF_OPTIONS.printBackground,
  generateTaggedPDF: PDF_OPTIONS.tagged,
  generateDocumentOutline: PDF_OPTIONS.outline,
  // A4 in inches and no margins, should a document lack its @page rule (puppeteer's default would be Letter).
  paperWidth: 8.27,
  paperHeight: 11.7,
  marginTop: 0,
  marginBottom: 0,
  marginLeft: 0,
  marginRight: 0,
} as const;

/**
 * A script function run in the page once its document is written: answers, once the document has loaded and its fonts
 * are ready (measuring with a fallback font would mis-measure), the completion value of the script `then` run in the
 * global scope.
 */
const WHEN_LOADED_RUN = `function (then) {
  return new Promise(function (loaded) {
    if (document.readyState === 'complete') loaded();
    else window.addEventListener('load', function () { loaded(); }, { once: true });
  }).then(function () { return document.fonts.ready; }).then(function () { return (0, eval)(then); });
}`;

export interface PdfEngineOptions {
  /** Default: CHROMIUM_PATH, else Debian's headless shell, else Debian's chromium (resolveChromiumPath). */
  readonly executablePath?: string;
  /** Pages kept open (default 4: two per core on the reference machine). */
  readonly pages?: number;
  /** A page is closed and replaced after this many renders (default 100), bounding each renderer's memory. */
  readonly rendersPerPage?: number;
  /**
   * One render, from the HTML to the PDF bytes, of a small document (default 10 s); a larger one gets
   * RENDER_MS_PER_KIB more per KiB of its HTML (see budgetFor).
   */
  readonly renderTimeoutMs?: number;
  readonly launchTimeoutMs?: number;
  /**
   * A browser is replaced after this long (default 2 min): it takes no new render, closes once its renders in flight
   * are done, and a new one is launched; renders asked for meanwhile wait for it. Measured: the one-process Chromium
   * stops answering about three minutes after it started (175–186 s, at every stall of a 30-minute soak), whatever
   * its load.
   */
  readonly maxBrowserAgeMs?: number;
}

export interface HtmlToPdf {
  readonly pdf: Buffer;
  /** What `evaluate` returned (the paginator's sheet count), or 1. */
  readonly pageCount: number;
}

export interface PdfEngineStats extends PagePoolCounters {
  launches: number;
  /** Browsers abandoned because a render outlived renderTimeoutMs (then relaunched). */
  stuck: number;
  /** Browsers replaced at their age (maxBrowserAgeMs). */
  browsersReplaced: number;
  renders: number;
  retries: number;
  pagesRecycled: number;
}

/**
 * What a render's budget grows by per KiB of HTML. The budget is how long a stuck browser goes unnoticed (every
 * render waits while it stalls), so it is kept short for the common one-page document and grown for long ones:
 * measured on 2 cores with a CPU hog beside, a one-item DANFE (20 KiB) prints in under 0.5 s, and four 990-item
 * DANFEs (365 KiB, 18 sheets each) at once in 10 s; 10 s + 60 ms per KiB gives them 11 s and 32 s.
 */
const RENDER_MS_PER_KIB = 60;

/** How long closing a retired page may take before its browser counts as stuck. */
const PAGE_CLOSE_TIMEOUT_MS = 5_000;

export class PdfEngine {
  readonly stats: PdfEngineStats = {
    launches: 0,
    stuck: 0,
    browsersReplaced: 0,
    renders: 0,
    retries: 0,
    pagesRecycled: 0,
    pagesCreated: 0,
    blockedRequests: 0,
  };
  private session: Session | undefined;
  private relaunching: Promise<Session> | undefined;
  private closed = false;
  /** A replacement at age under way (close() waits for it, so no browser outlives the engine). */
  private replacing: Promise<void> | undefined;

  private constructor(
    private readonly executablePath: string,
    private readonly pages: number,
    private readonly rendersPerPage: number,
    private readonly renderTimeoutMs: number,
    private readonly launchTimeoutMs: number,
    private readonly maxBrowserAgeMs: number,
  ) {}

  /** Resolves the executable (ChromiumUnavailableError when absent), starts Chromium and opens the pages. */
  static async launch(options: PdfEngineOptions = {}): Promise<PdfEngine> {
    const engine = new PdfEngine(
      resolveChromiumPath(options.executablePath),
      options.pages ?? 4,
      options.rendersPerPage ?? 100,
      options.renderTimeoutMs ?? 10_000,
      options.launchTimeoutMs ?? 30_000,
      options.maxBrowserAgeMs ?? 120_000,
    );
    engine.session = await engine.startSession();
    return engine;
  }

  /** The browser process id (for memory readings and for the crash test). */
  get browserPid(): number | undefined {
    return this.session?.browser.process()?.pid;
  }

  /** Resident memory of Chromium and all its child processes (Linux). */
  memory(): Promise<ProcessTreeMemory | undefined> {
    return processTreeMemory(this.browserPid);
  }

  /**
   * Prints `html` (a complete document, A4 by its own @page rule). `evaluate`, when given, is a script expression
   * run after the content loaded (it may return a promise); its numeric result is the page count.
   */
  async render(html: string, evaluate?: string): Promise<HtmlToPdf> {
    if (this.closed) throw new RendererFailedError('the PDF renderer is closed');
    const session = await this.sessionForRender();
    try {
      return await this.renderOn(session, html, evaluate);
    } catch (error) {
      // A render past its budget abandoned its browser (renderOn): like a crash, it is retried on the next one.
      if (this.closed || !this.isChromiumFailure(session, error)) throw error;
      this.stats.retries++;
      let next = this.successorOf(session);
      if (next === session && (!session.browser.connected || session.isLost)) next = await this.relaunchAfter(session);
      try {
        return await this.renderOn(next, html, evaluate);
      } catch (again) {
        throw new RendererFailedError(`Chromium failed again after recovering: ${(again as Error).message}`, { cause: again });
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.relaunching?.catch(() => undefined);
    await this.replacing;
    if (this.session) await endSession(this.session);
    this.session = undefined;
  }

  private async renderOn(session: Session, html: string, evaluate: string | undefined): Promise<HtmlToPdf> {
    session.inFlight++;
    try {
      return await this.renderOnPage(session, html, evaluate);
    } finally {
      session.inFlight--;
      if (session.retired && session.inFlight === 0) session.onIdle?.();
    }
  }

  private async renderOnPage(session: Session, html: string, evaluate: string | undefined): Promise<HtmlToPdf> {
    const acquiring = session.pool.acquire();
    let pooled: PooledPage;
    try {
      pooled = await untilLost(session, acquiring);
    } catch (error) {
      // The browser died while this render waited for a page: a page handed out later goes straight back.
      acquiring
        .then(
          (late) => session.pool.destroy(late),
          () => undefined,
        )
        .catch(() => undefined);
      throw error;
    }
    let reusable = false;
    try {
      const budgetMs = this.budgetFor(html);
      const result = await withTimeout(untilLost(session, this.print(pooled, html, evaluate)), budgetMs, 'rendering the PDF');
      pooled.renders++;
      this.stats.renders++;
      reusable = pooled.renders < this.rendersPerPage;
      if (!reusable) this.stats.pagesRecycled++;
      return result;
    } catch (error) {
      // One process: a page that stops answering is the whole browser stopped (seen in the soak after minutes of
      // load: every render and every page opened after it waited forever). It is treated as a crash.
      if (error instanceof RenderTimeoutError) this.abandon(session, error);
      throw error;
    } finally {
      // A page that failed, crashed or reached its render budget is closed; the pool opens a fresh one. Not waited
      // for on a lost browser: closing a page of a Chromium that stopped answering never ends.
      const done = reusable && !pooled.crashed ? session.pool.release(pooled) : session.pool.destroy(pooled);
      if (session.isLost) done.catch(() => undefined);
      else
        await withTimeout(done, PAGE_CLOSE_TIMEOUT_MS, 'closing a page').catch((error: unknown) => {
          // A page close that never ends is the same stuck browser (seen: the render that retired its page hung
          // there, its job holding a worker slot for good); closing is otherwise immediate.
          if (error instanceof RenderTimeoutError) this.abandon(session, error);
        });
    }
  }

  /** Gives up on a browser that stopped answering: every wait on it ends now, and it is killed and relaunched. */
  private abandon(session: Session, cause: Error): void {
    if (session.isLost) return;
    this.stats.stuck++;
    session.isLost = true;
    session.lost.abort(new RendererFailedError(`Chromium stopped answering (${cause.message}); relaunching it`, { cause }));
    if (!this.closed && this.session === session) void this.relaunchAfter(session).catch(() => undefined);
  }

  /** The render budget of `html`: renderTimeoutMs, and RENDER_MS_PER_KIB more per KiB. */
  private budgetFor(html: string): number {
    return this.renderTimeoutMs + Math.ceil(html.length / 1024) * RENDER_MS_PER_KIB;
  }

  /**
   * Three DevTools round trips where puppeteer's setContent + evaluate + pdf() take seven (the paginator evaluated,
   * the fonts awaited again in another world, the print's stream read twice and closed): the document written as
   * setContent writes it; one evaluation that awaits its load and fonts and runs `evaluate`; the print, answering
   * with the PDF itself. Each message costs both processes a pipe write and a JSON parse, plus the events it raises.
   * The HTML goes as the command's string, not inside a script's source: Chromium would keep each render's source
   * (hundreds of KB for a 60-item DANFE) until its next collections, ~10 MB more at the peak.
   */
  private async print(pooled: PooledPage, html: string, evaluate: string | undefined): Promise<HtmlToPdf> {
    const { devtools, frameId } = pooled;
    await devtools.send('Page.setDocumentContent', { frameId, html });
    const evaluated = await devtools.send('Runtime.evaluate', {
      // `evaluate` is a script: its completion value answers, as with page.evaluate.
      expression: `(${WHEN_LOADED_RUN})(${JSON.stringify(evaluate ?? '1')})`,
      awaitPromise: true,
      returnByValue: true,
    });
    if (evaluated.exceptionDetails) {
      const { exception, text } = evaluated.exceptionDetails;
      throw new Error(`the document's script failed in the page: ${String(exception?.description ?? text)}`);
    }
    const counted = Number(evaluated.result.value);
    const { data } = await devtools.send('Page.printToPDF', PRINT_TO_PDF);
    return { pdf: Buffer.from(data, 'base64'), pageCount: Number.isInteger(counted) && counted > 0 ? counted : 1 };
  }

  /** A render failed because Chromium (or the page's renderer process) died, not because of the document. */
  private isChromiumFailure(session: Session, error: unknown): boolean {
    if (session.isLost || !session.browser.connected) return true;
    const message = error instanceof Error ? error.message : String(error);
    return /Target closed|Session closed|Page crashed|Connection closed|detached/i.test(message);
  }

  private async currentSession(): Promise<Session> {
    if (this.relaunching) return this.relaunching;
    if (this.session) return this.session;
    throw new RendererFailedError('the PDF renderer is closed');
  }

  /**
   * The browser a new render goes to. One retired at its age while this render waited for its turn is not it: its
   * last renders are ending and it closes after them, so the render waits for the one that replaces it.
   */
  private async sessionForRender(): Promise<Session> {
    const session = this.successorOf(await this.currentSession());
    return session.retired && this.relaunching ? this.relaunching : session;
  }

  /** A browser replaced at its age hands the renders retried after it to its successor. */
  private successorOf(session: Session): Session {
    return session.retired && this.session ? this.session : session;
  }

  /** Still the browser every render goes to, and nothing is closing or relaunching it. */
  private isServing(session: Session): boolean {
    return !this.closed && this.session === session && !session.isLost && !this.relaunching;
  }

  private replaceSoon(old: Session): void {
    this.replacing ??= this.replaceAtAge(old)
      .catch(() => undefined)
      .finally(() => {
        this.replacing = undefined;
      });
  }

  /**
   * A browser at its age is replaced in turn: it takes no new render, its renders in flight end, it is closed, and a
   * new one is launched; renders asked for meanwhile wait for the new one, as after a crash (`relaunching`). Never
   * beside it: two browsers at once held twice the memory for those seconds (measured in bench:pdf under 60-item
   * load: the pod's summed RSS 388–397 MB → 488–542 MB during a replacement), over what a pod is given. The pause
   * is a launch (~0.5 s) every maxBrowserAgeMs. A launch that fails leaves the closed browser as the session: the
   * next render finds it disconnected and relaunches, as after a crash.
   */
  private async replaceAtAge(old: Session): Promise<void> {
    if (!this.isServing(old)) return;
    old.retired = true;
    const idle = new Promise<void>((resolve) => {
      old.onIdle = resolve;
      if (old.inFlight === 0) resolve();
    });
    await this.succeed(old, idle);
    this.stats.browsersReplaced++;
  }

  /** Single flight: every render that saw `failed` die waits for the same relaunch. */
  private relaunchAfter(failed: Session): Promise<Session> {
    return this.session === failed ? this.succeed(failed) : this.currentSession();
  }

  /**
   * Ends `old` (once `ready`, when given) and launches the browser after it; every render that arrives meanwhile
   * waits for that one (`relaunching`, one at a time).
   */
  private succeed(old: Session, ready?: Promise<void>): Promise<Session> {
    this.relaunching ??= (async () => {
      await ready;
      await endSession(old);
      if (this.closed) throw new RendererFailedError('the PDF renderer is closed');
      const next = await this.startSession();
      this.session = next;
      return next;
    })().finally(() => {
      this.relaunching = undefined;
    });
    return this.relaunching;
  }

  private async startSession(): Promise<Session> {
    const session = await openSession({
      executablePath: this.executablePath,
      pages: this.pages,
      launchTimeoutMs: this.launchTimeoutMs,
      counters: this.stats,
    });
    // Relaunch as soon as Chromium goes away, so the next render finds a warm browser.
    session.browser.once('disconnected', () => {
      if (!this.closed && this.session === session) void this.relaunchAfter(session).catch(() => undefined);
    });
    session.ageTimer = setTimeout(() => this.replaceSoon(session), this.maxBrowserAgeMs).unref();
    return session;
  }
}
