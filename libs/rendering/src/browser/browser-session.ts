// One Chromium and its pool of pages, from launch to exit: opened warm (every page open before the first render),
// marked lost the moment it disconnects, and closed so that its process is gone when closing ends. The engine
// (pdf-engine.ts) decides which session takes a render, and when one is relaunched or replaced.
import type { Pool } from 'generic-pool';
import type { Browser } from 'puppeteer-core';
import { RendererFailedError } from '../errors.js';
import { disposeProfile, launchChromium } from './chromium.js';
import { createPagePool, type PagePoolCounters, type PooledPage } from './page-pool.js';

export interface BrowserSession {
  readonly browser: Browser;
  readonly pool: Pool<PooledPage>;
  readonly userDataDir: string;
  /** Aborted (with the reason) when Chromium disconnects: every wait on this session ends then (`untilLost`). */
  readonly lost: AbortController;
  isLost: boolean;
  /** Renders started on this browser and not yet ended. */
  inFlight: number;
  /** Replaced at its age: takes no new render, and is closed once `inFlight` reaches 0 (`onIdle`). */
  retired: boolean;
  /** Called when the last render of a retired browser ends. */
  onIdle?: () => void;
  ageTimer?: NodeJS.Timeout;
  /** endSession's work, once: a browser may be ended by its replacement, a relaunch and close(). */
  ending?: Promise<void>;
}

/** Work on a browser that outlived its time: in one process, a Chromium that stopped answering. */
export class RenderTimeoutError extends RendererFailedError {}

export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderTimeoutError(`${what} took more than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `work`, or the session's loss if that comes first. Not Promise.race with one long-lived promise: each race would
 * leave a reaction on it that keeps the race's result (a PDF's bytes) reachable for as long as the browser lives —
 * the renderer's memory grew by every PDF it printed (the soak's +33 MB/min). The listener is removed when `work`
 * settles.
 */
export function untilLost<T>(session: BrowserSession, work: Promise<T>): Promise<T> {
  const signal = session.lost.signal;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onLost = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onLost, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onLost));
  });
}

/** Launches Chromium in a profile of its own and opens its `pages` pages; nothing is left running when it fails. */
export async function openSession(options: {
  executablePath: string;
  pages: number;
  launchTimeoutMs: number;
  counters: PagePoolCounters & { launches: number };
}): Promise<BrowserSession> {
  const { browser, userDataDir } = await launchChromium(options.executablePath, options.launchTimeoutMs);
  options.counters.launches++;
  const pool = createPagePool(browser, options.pages, options.counters, options.launchTimeoutMs);
  const session: BrowserSession = { browser, pool, userDataDir, lost: new AbortController(), isLost: false, inFlight: 0, retired: false };
  browser.once('disconnected', () => {
    session.isLost = true;
    session.lost.abort(new RendererFailedError('Chromium disconnected'));
  });
  try {
    // Warm: every page open before the first render (acquire has a timeout; pool.ready() would poll forever).
    const warm = await Promise.all(Array.from({ length: options.pages }, () => pool.acquire()));
    await Promise.all(warm.map((pooled) => pool.release(pooled)));
  } catch (error) {
    await endSession(session);
    throw error;
  }
  return session;
}

/** Closes the session once, whoever asks (its replacement, a relaunch, the engine's close). */
export function endSession(session: BrowserSession): Promise<void> {
  session.ending ??= closeSession(session);
  return session.ending;
}

async function closeSession(session: BrowserSession): Promise<void> {
  clearTimeout(session.ageTimer);
  const drained = session.pool.drain().then(() => session.pool.clear());
  // A dead browser's pool may still have clients waiting for a page it can no longer open: they time out on
  // their own; waiting for them would hold the relaunch.
  if (!session.isLost) await drained.catch(() => undefined);
  else drained.catch(() => undefined);
  // A lost browser (crashed, or stopped answering: then it would not close either) is not asked to close.
  if (!session.isLost && session.browser.connected)
    await withTimeout(session.browser.close(), 5_000, 'closing Chromium').catch(() => undefined);
  // Whatever close() said, the process must be gone — the soak found browsers that had stopped answering still
  // spinning after puppeteer let go of them, orphaned, each taking its share of the cores — and is waited for until
  // it has exited, so that a replacement never runs beside it.
  const child = session.browser.process();
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await withTimeout(exited, 5_000, 'killing Chromium').catch(() => undefined);
  }
  await disposeProfile(session.userDataDir);
}
