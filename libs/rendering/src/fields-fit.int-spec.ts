// Every printed label and DANFE field value fits its box. They are one line with `overflow: hidden` (a fiscal form
// keeps its grid), so text wider than its cell is silently cut ("BASE DE CÁLC. DO IC", an address without its end),
// which no text extraction of the PDF notices: pdftotext reads a clipped glyph as well as a visible one. So the
// documents are laid out in a real Chromium with print media (the widths are in mm, the same as on paper), the DANFE's
// in-page script run as the renderer runs it (it fits long values: smaller type, then more lines), and every label's
// and value's content is measured against its box.
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumLaunchOptions, prepareDocument, type RenderOptions, resolveChromiumPath } from './index.js';
import { authorizedNfe, authorizedNfse, authorizedNfseWithRetention, readFiscalSample } from './testing/index.js';

/** Labels (`.l`), field values and the items table's headings whose text is wider than their box, both widths in px. */
const CLIPPED_TEXT = `Array.from(document.querySelectorAll('.l, td.c .v, th'))
  .filter((el) => el.scrollWidth > el.clientWidth)
  .map((el) => el.textContent.trim() + ': ' + el.scrollWidth + ' > ' + el.clientWidth)`;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await puppeteer.launch(chromiumLaunchOptions(resolveChromiumPath()));
  page = await browser.newPage();
  await page.emulateMediaType('print');
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function clippedText(xml: string, options?: RenderOptions): Promise<string[]> {
  const prepared = prepareDocument(xml, options);
  await page.setContent(prepared.html, { waitUntil: 'load' });
  if (prepared.paginate) await page.evaluate(prepared.paginate);
  return page.evaluate(CLIPPED_TEXT) as Promise<string[]>;
}

const correction = {
  sequence: 1,
  text: 'Onde se le Rua Augusta 500, leia-se Rua Augusta 510',
  protocol: '135260000009999',
  registeredAt: '2026-03-11T09:30:00-03:00',
};

/** A recipient at the schema's longest: name, street, number, complement and district of 60 characters each. */
const longest = (words: string) => words.repeat(10).slice(0, 60).trim();
const longestAddress = {
  environment: 'production' as const,
  request: {
    client_name: longest('MAXIMILIANO '),
    recipient_address: {
      street: longest('AVENIDA BRIGADEIRO '),
      number: longest('1234 BLOCO '),
      complement: longest('SALA '),
      neighborhood: longest('JARDIM '),
      city: 'Sao Paulo',
      state: 'SP',
      zip_code: '01305000',
      city_code: '3550308',
    },
  },
};

describe('every label and value fits its box', () => {
  it.each([
    ['one item, regime normal, with the IBS/CBS totals row', () => authorizedNfe().xml, {}],
    ['Simples Nacional (O/CSOSN), no reform row', () => authorizedNfe({ regime: 'simples_nacional' }).xml, {}],
    ['60 items, continuation sheets, cancelled', () => authorizedNfe({ items: 60 }).xml, { status: 'cancelled' as const }],
    ['SVC contingency, with a correction letter', () => authorizedNfe({ contingency: 'SVC-AN' }).xml, { correction }],
    ['a recipient whose name and address are as long as the schema allows', () => authorizedNfe(longestAddress).xml, {}],
    ['the same over 60 items (the continuation sheets repeat the header)', () => authorizedNfe({ ...longestAddress, items: 60 }).xml, {}],
    ['a real reform sample (IS, vNFTot, installments)', () => readFiscalSample('nfe/nfeProc_v4.00_IBSCBS_reforma_nfelib.xml'), {}],
    ['a real 2018 sample from SP', () => readFiscalSample('nfe/nfeProc_v4.00_SP_2018_nfelib.xml'), {}],
  ])(
    'DANFE: %s',
    async (_, xml, options) => {
      expect(await clippedText(xml(), options)).toEqual([]);
    },
    60_000,
  );

  it.each([
    ['with IBS/CBS', () => authorizedNfse().xml],
    ['with retentions', () => authorizedNfseWithRetention().xml],
    ['a real NFS-e of the national environment', () => readFiscalSample('nfse/NFSe_v1.00_homologacao_2022_nfelib.xml')],
  ])(
    'DANFSe: %s',
    async (_, xml) => {
      expect(await clippedText(xml())).toEqual([]);
    },
    60_000,
  );
});
