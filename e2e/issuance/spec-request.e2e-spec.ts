// SPEC.md "Invoice request", "Item", "IbsCbs group", "Address" over HTTP: requests written from those tables alone
// (no field the spec does not show) are authorized by the simulator with 201, and the documents sent carry what they
// asked for. Gateway, issuer and simulator as real processes; real PostgreSQL and Redis.
import { gunzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import { SAMPLE_RJ_ADDRESS } from '@talao/fiscal-model/testing';
import { startPlatform } from './support/platform.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(120_000);

const p = startedForFile('platform', () => startPlatform('spec-request'));

/** product.br as SPEC.md types it, rates as JSON numbers where the spec allows them. */
const specBr = (ncm: string) => ({
  ncm,
  cfop: '5102',
  tax: { icms: { cst: '00', origin: '0', rate: '18' }, pis: { cst: '01', rate: '1.65' }, cofins: { cst: '01', rate: '7.6' } },
  ibs_cbs: { cst: '000', classification: '000001', rate_state: 0.1, rate_city: 0, rate_federal: 0.9 },
});

/** NF-e from SPEC.md's tables: ICMS, PIS, COFINS in product.br.tax; IBS/CBS (required from 2026 for CRT 3). */
const SPEC_NFE = {
  document_type: 'nfe',
  client_name: 'Maria da Silva',
  tax_id: '12345678909',
  recipient_address: {
    street: 'Rua Augusta',
    number: 'S/N',
    neighborhood: 'Consolacao',
    city: 'Sao Paulo',
    state: 'SP',
    zip_code: '01305000',
    city_code: '3550308',
  },
  series: '1',
  contingency: false,
  items: [
    {
      description: 'Camiseta algodao',
      unit_price: '49.90',
      amount: '99.80',
      product: {
        quantity: '2',
        unit: 'UN',
        barcode: '7891000315507',
        discount: '9.80',
        freight: '5.00',
        br: specBr('61091000'),
      },
    },
    {
      description: 'Meia',
      unit_price: 12.5,
      product: {
        quantity: 1,
        unit: 'PAR',
        br: specBr('61159500'),
      },
    },
  ],
};

/** NFS-e from SPEC.md's tables: service_code, tax_retained, observations, the service discount. */
const SPEC_NFSE = {
  document_type: 'nfse',
  client_name: 'Condominio Edificio Aurora',
  tax_id: '11222333000181',
  recipient_address: SAMPLE_RJ_ADDRESS,
  items: [
    {
      description: 'Limpeza predial',
      unit_price: '600.25',
      product: { quantity: '2' },
      discount: '0.50',
      service_code: '7.10',
      tax_retained: true,
      observations: 'ISS retido pelo tomador (LC 116/2003, art. 6)',
    },
  ],
};

async function sentXml(key: string, invoiceId: string): Promise<string> {
  const { status, body } = await p.api('GET', `/api/v1/invoices/${invoiceId}/submissions`, { key });
  expect(status).toBe(200);
  const first = (body.data as Array<{ request_body: string }>)[0]!;
  if (first.request_body.startsWith('{')) {
    const { dpsXmlGZipB64 } = JSON.parse(first.request_body) as { dpsXmlGZipB64: string };
    return gunzipSync(Buffer.from(dpsXmlGZipB64, 'base64')).toString('utf8');
  }
  return first.request_body;
}

describe('a request written from SPEC.md alone', () => {
  it('NF-e (ICMS/PIS/COFINS in product.br.tax): 201; the NF-e carries the lines, discount, freight and the homologation recipient name', async () => {
    const company = await p.createCompany();
    const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: SPEC_NFE });
    expect(created.status).toBe(201);
    // 99.80 − 9.80 + 5.00 + 12.50
    expect(created.body).toMatchObject({ document_type: 'nfe', status: 'issued', series: 1, total_amount: '107.50' });
    expect(created.body.access_key).toMatch(/^[0-9]{44}$/);
    const xml = await sentXml(company.homologationKey, String(created.body.invoice_id));
    const fragments = [
      '<xNome>NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL</xNome>',
      '<nro>S/N</nro><xBairro>Consolacao</xBairro><cMun>3550308</cMun><xMun>São Paulo</xMun><UF>SP</UF><CEP>01305000</CEP>',
      '<cEAN>7891000315507</cEAN>',
      '<uCom>PAR</uCom>',
      '<vFrete>5.00</vFrete><vDesc>9.80</vDesc>',
      '<cEAN>SEM GTIN</cEAN>',
    ];
    expect(fragments.filter((fragment) => !xml.includes(fragment))).toEqual([]);
  });

  it('NFS-e (service_code, tax_retained, observations): 201; the DPS carries tpRetISSQN 2, xInfComp and the homologation taker name', async () => {
    const company = await p.createCompany({ taxRegime: 'simples_nacional' });
    const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: SPEC_NFSE });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ document_type: 'nfse', status: 'issued' });
    expect(created.body.access_key).toMatch(/^[0-9]{50}$/);
    const dps = await sentXml(company.homologationKey, String(created.body.invoice_id));
    expect(dps).toContain('<toma><CNPJ>11222333000181</CNPJ><xNome>NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL</xNome>');
    expect(dps).toContain('<cTribNac>071001</cTribNac><xDescServ>Limpeza predial</xDescServ>');
    expect(dps).toContain('<infoCompl><xInfComp>ISS retido pelo tomador (LC 116/2003, art. 6)</xInfComp></infoCompl>');
    expect(dps).toContain('<vServ>1200.50</vServ></vServPrest><vDescCondIncond><vDescIncond>0.50</vDescIncond>');
    expect(dps).toContain('<tpRetISSQN>2</tpRetISSQN>');
  });

  it('an NFS-e ignores product.br: not validated, not stored', async () => {
    const company = await p.createCompany({ taxRegime: 'simples_nacional' });
    const body = {
      ...SPEC_NFSE,
      items: [{ ...SPEC_NFSE.items[0], product: { quantity: '2', unit: 'HORA', br: { ncm: 'not-a-ncm', cfop: '5102' } } }],
    };
    const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body });
    expect(created.status).toBe(201);
    const invoice = await p.prisma.invoice.findUniqueOrThrow({ where: { id: String(created.body.invoice_id) } });
    const stored = JSON.stringify(invoice.request);
    expect(stored).not.toContain('not-a-ncm');
    expect(stored).not.toContain('HORA');
    expect((invoice.request as { body: { items: Array<{ product: unknown }> } }).body.items[0]!.product).toEqual({ quantity: '2' });
  });
});

describe('refused before transmission (422, detail = { code, field, message, expected, received })', () => {
  const line = SPEC_NFE.items[0]!;
  const withLine = (item: Record<string, unknown>) => ({ ...SPEC_NFE, items: [item] });
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['ITEM_TOTAL_MISMATCH', withLine({ ...line, amount: '99.90' }), { field: 'items[0].amount', expected: '99.80', received: '99.90' }],
    ['ITEM_AMOUNT_MISSING', withLine({ ...line, unit_price: undefined, amount: undefined }), { field: 'items[0].amount', received: null }],
    [
      'ITEM_DISCOUNT_EXCEEDS_GROSS',
      withLine({ ...line, product: { ...line.product, discount: '99.81' } }),
      { field: 'items[0].product.discount', received: '99.81' },
    ],
    ['ITEM_PRECISION_UNSUPPORTED', withLine({ ...line, amount: '99.801' }), { field: 'items[0].amount', received: '99.801' }],
    [
      'FIELD_TOO_LONG',
      { ...SPEC_NFE, client_name: 'Associacao dos Moradores e Amigos do Bairro da Consolacao de Sao Paulo' },
      { field: 'client_name', expected: '2–60 characters for nfe' },
    ],
    ['FIELD_UNKNOWN', { ...SPEC_NFE, buyer: { name: 'Maria' } }, { field: 'buyer' }],
  ];
  it.each(cases)('%s', async (code, body, detail) => {
    const company = await p.createCompany();
    const response = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual({
      code,
      message: expect.any(String),
      expected: expect.anything(),
      received: expect.anything(),
      ...detail,
    });
    expect(Object.keys(response.body.detail as object).sort()).toEqual(['code', 'expected', 'field', 'message', 'received']);
    expect(await p.prisma.invoice.count({ where: { companyId: company.id } })).toBe(0);
  });
});
