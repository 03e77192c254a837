// The DANFE printed by a real Chromium and read back with independent tools: pdfinfo (pages, A4), pdftotext (the
// grouped key, names, totals and protocol on the right pages), pdffonts (embedded fonts) and zbarimg (the CODE-128C
// barcode scanned from a pdftoppm image decodes to exactly the 44-digit key). Documents: the platform's own builders
// (1 and 60 items, with and without IBS/CBS, SVC contingency) and real nfeProc samples.
import { authorizedNfe, brl, longestAdditionalData, readFiscalSample } from './testing/index.js';
import { firstAuthorizedPage, usePrintingRenderer } from './testing/printing-renderer.js';

const grouped = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');
const xmlValue = (xml: string, path: RegExp) => path.exec(xml)?.[1] ?? '';

const print = usePrintingRenderer();

describe('DANFE', () => {
  it('one item: A4, one page, key grouped and as CODE-128C, names, protocol and totals, fonts embedded', async () => {
    const nfe = authorizedNfe();
    const { rendered, pdf } = await print(nfe.xml);
    expect(rendered).toMatchObject({ ...firstAuthorizedPage('nfe', nfe.accessKey), contentType: 'application/pdf' });
    expect(pdf.pageCount()).toBe(1);
    expect(pdf.info()['Page size']).toMatch(/^59[45]\.\d+ x 84[12]\.\d+ pts \(A4\)$/);
    const text = pdf.text(1);
    expect(text).toContain('DANFE');
    expect(text).toContain(grouped(nfe.accessKey));
    expect(text).toContain('TALAO DEMONSTRACAO LTDA');
    // In homologation the recipient's name is the fixed sentence the authorizer demands.
    expect(text).toContain('NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL');
    expect(text).toContain(`${nfe.protocol} - 10/03/2026 12:00:01`);
    expect(text).toContain(brl(xmlValue(nfe.xml, /<vNF>([^<]+)<\/vNF>/)));
    expect(pdf.rawText(1)).toMatch(/^SEM\s+VALOR\s+FISCAL$/m);
    expect(text).toContain('RECEBEMOS DE TALAO DEMONSTRACAO LTDA');
    expect(text).toContain('1/1');
    expect(pdf.symbols(1)).toEqual([{ type: 'CODE-128', data: nfe.accessKey }]);
    const fonts = pdf.fonts();
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((f) => f.embedded && f.name.startsWith('LiberationSans'))).toBe(true);
  }, 60_000);

  it('60 items: continuation sheets repeat the header with sheet n/m, every item printed once, in order', async () => {
    const nfe = authorizedNfe({ items: 60, number: 1260 });
    const { rendered, pdf } = await print(nfe.xml);
    const pages = pdf.pageCount();
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(rendered.pageCount).toBe(pages);
    const texts = Array.from({ length: pages }, (_, i) => pdf.text(i + 1));
    texts.forEach((text, i) => {
      expect(text).toContain(grouped(nfe.accessKey));
      expect(text).toContain('TALAO DEMONSTRACAO LTDA');
      expect(text).toContain(`${i + 1}/${pages}`);
      expect(text).toContain(nfe.protocol);
      expect(pdf.rawText(i + 1)).toMatch(/^SEM\s+VALOR\s+FISCAL$/m);
      expect(pdf.symbols(i + 1, 200)).toEqual([{ type: 'CODE-128', data: nfe.accessKey }]);
    });
    // The first sheet alone has the stub, the recipient, the taxes and the additional data.
    expect(texts[0]).toContain('RECEBEMOS DE');
    expect(texts[0]).toContain('CÁLCULO DO IMPOSTO');
    expect(texts[0]).toContain(brl(xmlValue(nfe.xml, /<vNF>([^<]+)<\/vNF>/)));
    for (const text of texts.slice(1)) {
      expect(text).not.toContain('RECEBEMOS DE');
      expect(text).not.toContain('CÁLCULO DO IMPOSTO');
      expect(text).toContain('(CONTINUAÇÃO)');
    }
    const all = texts.join('\n');
    for (let i = 1; i <= 60; i++) expect(all.split(`SKU-${String(i).padStart(3, '0')}`).length - 1).toBe(1);
    expect(texts[0]).toContain('SKU-001');
    expect(texts[pages - 1]).toContain('SKU-060');
  }, 120_000);

  it('with IBS/CBS prints the reform totals; a Simples Nacional NF-e without the group prints none, and O/CSOSN', async () => {
    const reform = authorizedNfe({ number: 2001 });
    const withReform = (await print(reform.xml)).pdf.text(1);
    expect(withReform).toContain('VALOR DA CBS');
    expect(withReform).toContain(brl(xmlValue(reform.xml, /<gCBS>.*?<vCBS>([^<]+)<\/vCBS>/s)));
    expect(withReform).toContain(brl(xmlValue(reform.xml, /<vBCIBSCBS>([^<]+)<\/vBCIBSCBS>/)));

    const simples = authorizedNfe({ regime: 'simples_nacional', number: 2002 });
    expect(simples.xml).not.toContain('<IBSCBSTot>');
    const withoutReform = (await print(simples.xml)).pdf.text(1);
    expect(withoutReform).not.toContain('VALOR DA CBS');
    expect(withoutReform).toContain('O/CSOSN');
    expect(withoutReform).toContain('0102');
  }, 60_000);

  it('a real reform sample: IBS/CBS, IS and vNFTot totals, invoices and installments, production (no watermark)', async () => {
    const xml = readFiscalSample('nfe/nfeProc_v4.00_IBSCBS_reforma_nfelib.xml');
    const { rendered, pdf } = await print(xml);
    const text = pdf.text(1);
    expect(text).toContain('Contribuinte A');
    expect(text).toContain('Contribuinte B');
    expect(text).toContain('315230052780138');
    for (const value of ['164.746,81', '87,29', '50,00', '2.000,50', '1.000,00', '5.000,00']) expect(text).toContain(value);
    expect(text).toContain('FATURA 0000664350');
    expect(pdf.rawText(1)).not.toContain('SEM VALOR FISCAL');
    expect(pdf.symbols(1)).toEqual([{ type: 'CODE-128', data: rendered.accessKey }]);
  }, 60_000);

  it('SVC contingency: the notice with the time and the reason; the key carries tpEmis 6', async () => {
    const nfe = authorizedNfe({ contingency: 'SVC-AN', number: 3001 });
    expect(nfe.accessKey[34]).toBe('6');
    const { pdf } = await print(nfe.xml);
    const text = pdf.text(1).replace(/\s+/g, ' ');
    expect(text).toContain('CONTINGÊNCIA SVC-AN');
    expect(text).toContain('DANFE EMITIDO EM CONTINGÊNCIA (SVC-AN)');
    expect(text).toContain('SEFAZ autorizadora indisponivel desde as 11h');
    expect(pdf.symbols(1)).toEqual([{ type: 'CODE-128', data: nfe.accessKey }]);
  }, 60_000);

  it('cancelled: CANCELADA on every sheet, and a new version', async () => {
    const nfe = authorizedNfe({ items: 60, number: 4001 });
    const { rendered, pdf } = await print(nfe.xml, { status: 'cancelled' });
    expect(rendered.version).toBe('r2.cancelled');
    expect(pdf.pageCount()).toBeGreaterThanOrEqual(2);
    for (let page = 1; page <= pdf.pageCount(); page++) expect(pdf.rawText(page)).toMatch(/^CANCELADA$/m);
  }, 120_000);

  it('the latest correction letter: its text printed, or only referenced; each a version of its own', async () => {
    const nfe = authorizedNfe({ number: 5001 });
    const correction = {
      sequence: 2,
      text: 'Onde se le Rua Augusta 500, leia-se Rua Augusta 510',
      protocol: '135260000009999',
      registeredAt: '2026-03-11T09:30:00-03:00',
    };
    const printed = await print(nfe.xml, { correction });
    expect(printed.rendered.version).toBe('r2.authorized.cce2');
    const text = printed.pdf.text(1).replace(/\s+/g, ' ');
    expect(text).toContain('CARTA DE CORREÇÃO ELETRÔNICA Nº 2 (protocolo 135260000009999, registrada em 11/03/2026 09:30:00)');
    expect(text).toContain(correction.text);

    const referenced = await print(nfe.xml, { correction, correctionPrint: 'reference' });
    expect(referenced.rendered.version).toBe('r2.authorized.cce2-ref');
    const reference = referenced.pdf.text(1).replace(/\s+/g, ' ');
    expect(reference).toContain('CARTA DE CORREÇÃO ELETRÔNICA Nº 2');
    expect(reference).not.toContain(correction.text);
  }, 60_000);

  it('additional data longer than the first sheet: continues on the next, every word and every item printed once', async () => {
    const { xml, infCpl, options } = longestAdditionalData();
    const { rendered, pdf } = await print(xml, options);
    expect(rendered.pageCount).toBe(2);
    const texts = [pdf.text(1), pdf.text(2)];
    expect(texts[0]).not.toContain('(CONTINUAÇÃO)');
    expect(texts[1]).toContain('DADOS ADICIONAIS (CONTINUAÇÃO)');
    expect(texts[1]).toContain('2/2');
    // Every numbered word of both texts printed once and in order: the first sheet's words, then the second's.
    const printed = texts.join(' ').split(/\s+/);
    for (const text of [infCpl, options.correction?.text ?? '']) {
      const expected = text.split(' ');
      expect(printed.filter((word) => expected.includes(word))).toEqual(expected);
    }
    for (let i = 1; i <= 5; i++) expect(printed.filter((word) => word === `SKU-00${i}`)).toHaveLength(1);
  }, 60_000);

  it('real samples: the homologation watermark exactly when tpAmb is 2, key, protocol and total, barcode', async () => {
    for (const sample of [
      'nfe/nfeProc_v4.00_SP_2018_nfelib.xml',
      'nfe/nfeProc_v4.00_PR_2017_nfelib.xml',
      'nfe/nfeProc_v4.00_RS_2018_spednfe.xml',
    ]) {
      const xml = readFiscalSample(sample);
      const { rendered, pdf } = await print(xml);
      const text = pdf.text(1);
      expect(text).toContain(grouped(rendered.accessKey));
      expect(text).toContain(xmlValue(xml, /<nProt>([^<]+)<\/nProt>/));
      expect(text).toContain(brl(xmlValue(xml, /<vNF>([^<]+)<\/vNF>/)));
      expect(/^SEM\s+VALOR\s+FISCAL$/m.test(pdf.rawText(1))).toBe(xml.includes('<tpAmb>2</tpAmb>'));
      expect(pdf.symbols(1)).toEqual([{ type: 'CODE-128', data: rendered.accessKey }]);
    }
  }, 120_000);
});
