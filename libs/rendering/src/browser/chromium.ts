// Where Chromium is and how it is started: Debian's headless shell, else Debian's chromium (puppeteer-core never
// downloads a browser), headless, over a pipe (no debugging port), in a fresh profile, with every background service
// that would reach the network turned off (STACK.md "Chromium"), and in one process (see SINGLE_PROCESS_FLAGS).
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { ChromiumUnavailableError } from '../errors.js';

/**
 * Debian's binaries, in the order they are looked for (the /usr/bin wrappers are shell scripts that print a warning).
 * First `chromium-headless-shell` (package chromium-headless-shell): the same engine built as a headless program only,
 * with no browser UI compiled in. Measured with 4 pages (libs/rendering/README.md "Performance"): its one process holds
 * ~290 MB after the benchmark's renders where the full `chromium` holds ~410 (75 MB less of the executable's code
 * resident, and less heap), at the same CPU per PDF; the DANFE and DANFSe tests pass on both.
 */
export const DEBIAN_CHROMIUM_PATHS: readonly string[] = ['/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium'];

/**
 * Browser, renderers and utilities in one process. Measured (libs/rendering/README.md "Performance"): a multi-process
 * Chromium starts a new PrintCompositor utility process for every page.pdf() (≈ 120 ms of CPU each, more than the
 * rendering itself) and keeps a renderer process per page; in one process the compositor runs on a thread, a PDF
 * costs about a third of the CPU and the tree is a single process. What this gives up is isolation between pages
 * (a page that crashes takes the browser with it): the engine relaunches the browser and retries the renders in
 * flight, and the pages only ever hold our own documents, with every network request denied. `--no-zygote`: with
 * no renderer process to fork there is no use for the zygotes (it needs `--no-sandbox`, which the container's
 * seccomp profile requires anyway).
 */
const SINGLE_PROCESS_FLAGS = ['--single-process', '--no-zygote'];

/**
 * V8 in the pages (one isolate for all of them, in one process) told to favour memory over speed. Each render
 * replaces a page's document, and the old one is garbage that V8, sized for this machine's 24 GiB, collects late:
 * Chromium held ~290 MB at the end of `bench:pdf`'s 1-item rounds, ~230 MB with this flag (the bare baseline it is
 * compared with launches with the same flags, so the ratio compares like with like). Not `--max-old-space-size`: a
 * hard cap that four 990-item DANFEs at once, in one process, could hit, crashing every render in flight.
 */
const V8_FLAGS = ['--js-flags=--optimize-for-size'];

export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-extensions',
  '--disable-default-apps',
  '--mute-audio',
  ...SINGLE_PROCESS_FLAGS,
  ...V8_FLAGS,
];

/** One line for a person: what is missing and how to get it. */
export function chromiumInstallHint(path: string): string {
  return `Chromium not found at ${path}: install it (Debian: apt-get install chromium-headless-shell fonts-liberation) or set CHROMIUM_PATH to its executable`;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The executable to run: the explicit path, else CHROMIUM_PATH, else the first of `installed` (Debian's) that can be
 * executed; throws when the one named cannot be executed or none is installed (naming the first).
 */
export function resolveChromiumPath(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  installed: readonly string[] = DEBIAN_CHROMIUM_PATHS,
): string {
  const path = explicit || env.CHROMIUM_PATH || installed.find(executable) || installed[0] || '';
  if (!executable(path)) throw new ChromiumUnavailableError(chromiumInstallHint(path));
  return path;
}

/**
 * How puppeteer starts the executable at `path` (the engine, and the benchmarks' bare baselines, the same way): the
 * headless shell takes `--headless`, the full browser `--headless=new`.
 */
export function chromiumLaunchOptions(path: string) {
  const shell = /headless[-_]shell$/.test(path);
  return { executablePath: path, headless: shell ? ('shell' as const) : true, pipe: true, args: [...CHROMIUM_FLAGS] };
}

export interface LaunchedChromium {
  readonly browser: Browser;
  readonly userDataDir: string;
}

/** Starts one headless Chromium in a profile of its own (removed by `disposeProfile`). */
export async function launchChromium(executablePath: string, timeoutMs: number): Promise<LaunchedChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'talao-chromium-'));
  try {
    const browser = await puppeteer.launch({
      ...chromiumLaunchOptions(executablePath),
      userDataDir,
      timeout: timeoutMs,
      // The owner (a worker) decides how to shut down; Chromium must not die under it on a signal.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return { browser, userDataDir };
  } catch (error) {
    await disposeProfile(userDataDir);
    throw new ChromiumUnavailableError(`Chromium at ${executablePath} did not start: ${(error as Error).message}`, { cause: error });
  }
}

export async function disposeProfile(userDataDir: string): Promise<void> {
  await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}
