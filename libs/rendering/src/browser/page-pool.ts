// The pages of one Chromium, pooled (generic-pool): each page is set up once (network denied, crash noticed) and
// reused; the engine retires a page after a number of renders, so a renderer process cannot grow without bound.
import { createPool, type Pool } from 'generic-pool';
import type { Browser, CDPSession, Page } from 'puppeteer-core';

export interface PooledPage {
  readonly page: Page;
  /** A DevTools session of its own on the page, for the render's three commands (see PdfEngine's print). */
  readonly devtools: CDPSession;
  /** The page's main frame, where the document is written (it stays the same: the page never navigates). */
  readonly frameId: string;
  renders: number;
  /** The page's renderer process died ("Page crashed!"): never reused. */
  crashed: boolean;
}

export interface PagePoolCounters {
  pagesCreated: number;
  blockedRequests: number;
}

/**
 * Every request the page would make is refused, except `data:` URLs (inline content); the documents embed all they
 * need, so a refused request is a layout bug or hostile content, and is counted.
 */
async function preparePage(browser: Browser, counters: PagePoolCounters): Promise<PooledPage> {
  const page = await browser.newPage();
  const devtools = await page.createCDPSession();
  const { frameTree } = await devtools.send('Page.getFrameTree');
  const pooled: PooledPage = { page, devtools, frameId: frameTree.frame.id, renders: 0, crashed: false };
  page.on('error', () => {
    pooled.crashed = true;
  });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (request.url().startsWith('data:')) {
      void request.continue().catch(() => undefined);
      return;
    }
    counters.blockedRequests++;
    void request.abort('blockedbyclient').catch(() => undefined);
  });
  counters.pagesCreated++;
  return pooled;
}

const CREATE_FAILURE_PAUSE_MS = 200;

export function createPagePool(browser: Browser, size: number, counters: PagePoolCounters, acquireTimeoutMs: number): Pool<PooledPage> {
  return createPool<PooledPage>(
    {
      // generic-pool retries a failed create at once while a client waits, in a loop of microtasks that would starve
      // the event loop (a dead browser fails every create instantly): a failure is reported only after a pause.
      create: async () => {
        try {
          if (!browser.connected) throw new Error('Chromium is disconnected');
          return await preparePage(browser, counters);
        } catch (error) {
          await new Promise((resolve) => setTimeout(resolve, CREATE_FAILURE_PAUSE_MS));
          throw error;
        }
      },
      destroy: async (pooled) => {
        await pooled.page.close().catch(() => undefined);
      },
      validate: async (pooled) => browser.connected && !pooled.crashed && !pooled.page.isClosed(),
    },
    { max: size, min: size, testOnBorrow: true, acquireTimeoutMillis: acquireTimeoutMs, autostart: true },
  );
}
