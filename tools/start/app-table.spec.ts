// `npm start` runs the pdf-renderer only where Chromium can run, and says in one line how to get it where not.
import { chromiumInstallHint, DEBIAN_CHROMIUM_PATHS as RENDERER_PATHS } from '@talao/rendering';
import { appNamed, DEBIAN_CHROMIUM_PATHS } from './app-table.mjs';

describe('the pdf-renderer entry of the app table', () => {
  const saved = process.env.CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  it('is unavailable without Chromium, with one line saying how to install it', () => {
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    const reason = appNamed('pdf-renderer').unavailable?.();
    expect(reason).toBe(
      'Chromium not found at /nonexistent/chromium: install it (Debian: apt-get install chromium-headless-shell fonts-liberation) or set CHROMIUM_PATH to its executable',
    );
    expect(reason).toBe(chromiumInstallHint('/nonexistent/chromium'));
    expect(reason).not.toContain('\n');
  });

  it("looks for Debian's executables in the renderer's order (the launcher cannot import it before the build)", () => {
    expect(DEBIAN_CHROMIUM_PATHS).toEqual(RENDERER_PATHS);
  });

  it('is available when CHROMIUM_PATH names an executable', () => {
    process.env.CHROMIUM_PATH = process.execPath;
    expect(appNamed('pdf-renderer').unavailable?.()).toBeUndefined();
  });
});
