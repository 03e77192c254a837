// The DANFSe printed by a real Chromium and read back with independent tools: one A4 page (pdfinfo), the 50-digit
// key, parties, values and retentions (pdftotext), and the QR code scanned by zbarimg from a pdftoppm image decoding
// to the national public consultation URL with the key. Documents: the platform's DPS pipeline (IBS/CBS, no
// retention), a real DPS sample with federal retentions (both authorized and checked against NFSe_v1.01.xsd), and a
// real NFS-e v1.00 from the national environment.
import { nfseConsultationUrl } from './index.js';
import { authorizedNfse, authorizedNfseWithRetention, nfseSchemaErrors, readFiscalSample } from './testing/index.js';
import { firstAuthorizedPage, usePrintingRenderer } from './testing/printing-renderer.js';

const printing = usePrintingRenderer();

/** A DANFSe is always one A4 page: checked on every print, with the page's text. */
async function print(xml: string, status?: 'authorized' | 'cancelled' | 'replaced') {
  const { rendered, pdf } = await printing(xml, { status });
  expect(pdf.pageCount()).toBe(1);
  expect(pdf.info()['Page size']).toContain('(A4)');
  return { rendered, pdf, text: pdf.text(1) };
}

describe('DANFSe', () => {
  it('without retention, with IBS/CBS: key, parties, values, the test-environment notice and the QR code', async () => {
    const nfse = authorizedNfse();
    expect(nfseSchemaErrors(nfse.xml)).toBeUndefined();
    const { rendered, pdf, text } = await print(nfse.xml);
    expect(rendered).toMatchObject(firstAuthorizedPage('nfse', nfse.accessKey));
    expect(text).toContain('DANFSe v2.0');
    expect(text).toContain(nfse.accessKey);
    expect(text).toContain('TALAO DEMONSTRACAO LTDA');
    // Homologation: the taker's name sent to the national environment is the mandatory test phrase (SPEC.md 8).
    expect(text.replace(/\s+/g, ' ')).toContain('NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO');
    expect(text).toContain('Suporte tecnico');
    expect(text).toContain('NFS-e SEM VALIDADE JURÍDICA');
    expect(text).toContain('TRIBUTAÇÃO IBS / CBS');
    expect(text).toContain('R$ 1.500,00');
    expect(text).toContain('R$ 13,50'); // CBS 0.9 % of 1 500.00
    expect(pdf.valueBelow(1, 'Total das retenções (ISSQN / federais)')).toBe('R$ 0,00');
    expect(pdf.valueBelow(1, 'Valor líquido da NFS-e')).toBe('R$ 1.500,00');
    expect(pdf.symbols(1)).toEqual([{ type: 'QR-Code', data: nfseConsultationUrl(nfse.accessKey) }]);
    expect(nfseConsultationUrl(nfse.accessKey)).toBe(`https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=${nfse.accessKey}`);
  }, 60_000);

  it('with retention: IRRF, CSLL, PIS/COFINS withheld, their total and the net value', async () => {
    const nfse = authorizedNfseWithRetention();
    expect(nfseSchemaErrors(nfse.xml)).toBeUndefined();
    expect(nfse.retentions).toBe('6.15');
    const { pdf, text } = await print(nfse.xml);
    expect(text).toContain('OFICINA DE REPAROS EXEMPLO LTDA');
    expect(text).toContain('1) SERVICOS - REPARO / MANUTENCAO');
    expect(pdf.valueBelow(1, 'IRRF')).toBe('R$ 1,50');
    expect(pdf.valueBelow(1, 'Contribuições sociais - retidas (CSLL)')).toBe('R$ 1,00');
    expect(pdf.valueBelow(1, 'Descrição das contribuições sociais retidas')).toBe('PIS/COFINS retidos');
    expect(pdf.valueBelow(1, 'Total das retenções (ISSQN / federais)')).toBe('R$ 6,15');
    expect(pdf.valueBelow(1, 'Valor líquido da NFS-e')).toBe('R$ 93,85');
    expect(text).toContain('Federais: R$ 3,00; Estaduais: R$ 12,00; Municipais: R$ 10,00');
    expect(pdf.symbols(1)).toEqual([{ type: 'QR-Code', data: nfseConsultationUrl(nfse.accessKey) }]);
  }, 60_000);

  it('a real NFS-e of the national environment (v1.00): retentions and net value as authorized, no IBS/CBS block', async () => {
    const xml = readFiscalSample('nfse/NFSe_v1.00_homologacao_2022_nfelib.xml');
    const { rendered, pdf, text } = await print(xml);
    expect(rendered.accessKey).toBe('14001591201761135000132000000000000022097781063609');
    expect(text).toContain('LW SOFTWARES LTDA');
    expect(pdf.valueBelow(1, 'Total das retenções (ISSQN / federais)')).toBe('R$ 28,97');
    expect(pdf.valueBelow(1, 'Valor líquido da NFS-e')).toBe('R$ 989.999.961,04');
    expect(text).toContain('TOMADOR/ADQUIRENTE DA OPERAÇÃO NÃO IDENTIFICADO NA NFS-e');
    expect(text).not.toContain('TRIBUTAÇÃO IBS / CBS');
    expect(pdf.symbols(1)).toEqual([{ type: 'QR-Code', data: nfseConsultationUrl(rendered.accessKey) }]);
  }, 60_000);

  it('cancelled and replaced: the watermark and the situation', async () => {
    const nfse = authorizedNfse({ number: 43 });
    const cancelled = await print(nfse.xml, 'cancelled');
    expect(cancelled.rendered.version).toBe('r2.cancelled');
    expect(cancelled.pdf.rawText(1)).toContain('CANCELADA');
    expect(cancelled.text).toContain('NFS-e cancelada');
    const replaced = await print(nfse.xml, 'replaced');
    expect(replaced.pdf.rawText(1)).toContain('SUBSTITUÍDA');
    expect(replaced.text).toContain('NFS-e substituída');
  }, 60_000);
});
