// The consent step as a person does it: headless Chromium (puppeteer-core, Debian's chromium) opens the authorization
// URL, lands on the consent page, types the API key, unticks what it will not grant and presses Allow; the redirect
// back to the client (which does not listen) is caught and its URL returned.
import { accessSync, constants } from 'node:fs';
import puppeteer from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/lib/chromium/chromium';

export function chromiumPresent(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function consentInChromium(
  authorizationUrl: string,
  options: { apiKey: string; untick: readonly string[]; redirectUri: string },
): Promise<{ callback: URL; pageText: string }> {
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    let callback: URL | undefined;
    page.on('request', (request) => {
      if (request.url().startsWith(options.redirectUri)) {
        callback = new URL(request.url());
        void request.respond({ status: 200, contentType: 'text/plain', body: 'back at the client' });
      } else {
        void request.continue();
      }
    });
    await page.goto(authorizationUrl, { waitUntil: 'domcontentloaded' });
    const pageText = await page.evaluate(() => document.body.innerText);
    await page.type('input[name="api_key"]', options.apiKey);
    for (const scope of options.untick) await page.click(`input[name="scope"][value="${scope}"]`);
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('button[value="allow"]')]);
    if (!callback) throw new Error(`no redirect to the client; the page says: ${await page.evaluate(() => document.body.innerText)}`);
    return { callback, pageText };
  } finally {
    await browser.close();
  }
}
