// The consent step as a person does it: headless Chromium (puppeteer-core, the renderer's Chromium) opens the authorization
// URL, lands on the consent page, types the API key, unticks what it will not grant and presses Allow; the redirect
// back to the client (which does not listen) is caught and its URL returned.
import { chromiumLaunchOptions } from '@talao/rendering';
import puppeteer from 'puppeteer-core';
import { installedChromium } from '../support/installed-chromium.js';

export function chromiumPresent(): boolean {
  return installedChromium() !== undefined;
}

export async function consentInChromium(
  authorizationUrl: string,
  options: { apiKey: string; untick: readonly string[]; redirectUri: string },
): Promise<{ callback: URL; pageText: string }> {
  const path = installedChromium();
  if (!path) throw new Error('no Chromium installed (CHROMIUM_PATH, or Debian chromium-headless-shell or chromium)');
  const { executablePath, headless } = chromiumLaunchOptions(path);
  const browser = await puppeteer.launch({ executablePath, headless, pipe: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    let reachedClient: (url: URL) => void = () => undefined;
    const callback = new Promise<URL>((resolve) => (reachedClient = resolve));
    page.on('request', (request) => {
      if (request.url().startsWith(options.redirectUri)) {
        reachedClient(new URL(request.url()));
        void request.respond({ status: 200, contentType: 'text/plain', body: 'back at the client' });
      } else {
        void request.continue();
      }
    });
    await page.goto(authorizationUrl, { waitUntil: 'domcontentloaded' });
    const pageText = await page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);
    await page.type('input[name="api_key"]', options.apiKey);
    for (const scope of options.untick) await page.click(`input[name="scope"][value="${scope}"]`);
    await page.click('button[value="allow"]');
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20_000).unref());
    const url = await Promise.race([callback, timeout]);
    if (!url)
      throw new Error(
        `no redirect to the client; the page says: ${await page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText)}`,
      );
    return { callback: url, pageText };
  } finally {
    await browser.close();
  }
}
