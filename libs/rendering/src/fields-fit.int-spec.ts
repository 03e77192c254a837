// Nothing printed is cut. Labels and DANFE field values are one line with `overflow: hidden` (a fiscal form keeps its
// grid), sheets are A4 pages and items areas hide their overflow too, so text wider than its cell ("BASE DE CÁLC. DO
// IC", an address without its end), a block below the sheet's edge or an item row below its area is lost silently —
// and no text extraction of the PDF notices: pdftotext reads a clipped glyph as well as a visible one. So the
// documents are laid out in a real Chromium with print media (the widths are in mm, the same as on paper), the DANFE's
// in-page script run as the renderer runs it, and every label, value, block and item row measured against its box.
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumLaunchOptions, prepareDocument, type RenderOptions, resolveChromiumPath } from './index.js';
import { authorizedNfe, authorizedNfse, authorizedNfseWithRetention, longestAdditionalData, readFiscalSample } from './testing/index.js';

/** Labels (`.l`), field values and the items table's headings whose text is wider than their box, both widths in px. */
const CLIPPED_TEXT = `Array.from(document.querySelectorAll('.l, td.c .v, th'))
  .filter((el) => el.scrollWidth > el.clientWidth)
  .map((el) => el.textContent.trim() + ': ' + el.scrollWidth + ' > ' + el.clientWidth)`;

/** Item rows that end below their items area (which hides its overflow): an item not printed, or printed in part. */
const ROWS_CUT = `Array.from(document.querySelectorAll('.items-area')).flatMap((area) => {
  const bottom = area.getBoundingClientRect().bottom;
  return Array.from(area.querySelectorAll('tbody tr'))
    .filter((row) => row.getBoundingClientRect().bottom > bottom + 1)
    .map((row) => 'item row ' + row.cells[0].textContent + ' ends ' + Math.round(row.getBoundingClientRect().bottom - bottom) + ' px below its area');
})`;

/** Blocks of a sheet that reach below its printable edge (the sheet is one A4 page with overflow hidden), in px. */
const BELOW_THE_EDGE = `Array.from(document.querySelectorAll('.sheet')).flatMap((sheet, index) => {
  const edge = sheet.getBoundingClientRect().bottom - parseFloat(getComputedStyle(sheet).paddingBottom);
  return Array.from(sheet.children)
    .filter((block) => getComputedStyle(block).position !== 'absolute' && block.getBoundingClientRect().bottom > edge + 1)
    .map((block) => 'sheet ' + (index + 1) + ': ' + block.className + ' ends ' + Math.round(block.getBoundingClientRect().bottom - edge) + ' px below');
})`;

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
  const found = await Promise.all([CLIPPED_TEXT, BELOW_THE_EDGE, ROWS_CUT].map((check) => page.evaluate(check) as Promise<string[]>));
  return found.flat();
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

// Built once (signed, schema-checked): the case needs both its XML and its render options.
const longestAdditional = longestAdditionalData();

describe('every label and value fits its box, and every block its sheet', () => {
  it.each([
    ['one item, regime normal, with the IBS/CBS totals row', () => authorizedNfe().xml, {}],
    ['Simples Nacional (O/CSOSN), no reform row', () => authorizedNfe({ regime: 'simples_nacional' }).xml, {}],
    ['60 items, continuation sheets, cancelled', () => authorizedNfe({ items: 60 }).xml, { status: 'cancelled' as const }],
    ['SVC contingency, with a correction letter', () => authorizedNfe({ contingency: 'SVC-AN' }).xml, { correction }],
    ['a recipient whose name and address are as long as the schema allows', () => authorizedNfe(longestAddress).xml, {}],
    ['the same over 60 items (the continuation sheets repeat the header)', () => authorizedNfe({ ...longestAddress, items: 60 }).xml, {}],
    ['additional data longer than the first sheet holds', () => longestAdditional.xml, longestAdditional.options],
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
