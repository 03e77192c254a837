import { createHash } from 'node:crypto';
import { isAccessKeyValid, parseAccessKey } from '../access-key/access-key.js';
import { validateInvoiceRequest } from '../request/validate-invoice-request.js';
import type { ValidatedInvoiceRequest } from '../request/validated-request.js';
import {
  SAMPLE_IBS_CBS,
  SAMPLE_TECHNICAL_RESPONSIBLE,
  sampleIssuer,
  sampleNfeItem,
  sampleNfeRequest,
  sampleNfseRequest,
  SAMPLE_RJ_ADDRESS,
} from '../testing/samples.js';
import { computeDpsDocument, dpsId } from './compute-dps.js';
import { HOMOLOGATION_RECIPIENT_NAME, computeNfeDocument } from './compute-nfe.js';
import { localTime } from './issue-time.js';

const NOW = new Date('2026-03-10T15:04:05.678Z');
const issuer = sampleIssuer('normal');
function validated(body: Record<string, unknown>, iss = issuer): ValidatedInvoiceRequest {
  const r = validateInvoiceRequest(body, iss, { now: NOW });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const context = {
  environment: 'homologation' as const,
  series: 1,
  number: 42,
  invoiceId: 'inv-0001',
  issuedAt: NOW,
  technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
};

describe('computeNfeDocument', () => {
  it('builds a valid access key consistent with ide, deterministic per invoice id', () => {
    const doc = computeNfeDocument(validated(sampleNfeRequest()), issuer, context);
    expect(isAccessKeyValid(doc.accessKey)).toBe(true);
    expect(parseAccessKey(doc.accessKey)).toMatchObject({
      cUF: '35',
      yearMonth: '2603',
      cnpjOrCpf: '11222333000181',
      model: '55',
      series: 1,
      number: 42,
      emissionType: 1,
      numericCode: doc.ide.cNF,
    });
    expect(doc.ide.cDV).toBe(doc.accessKey[43]);
    expect(computeNfeDocument(validated(sampleNfeRequest()), issuer, context).accessKey).toBe(doc.accessKey);
    expect(computeNfeDocument(validated(sampleNfeRequest()), issuer, { ...context, invoiceId: 'inv-0002' }).accessKey).not.toBe(
      doc.accessKey,
    );
  });
  it('builds the same document from the validated request (computation handed over once), again, and from its stored copy', () => {
    const request = validated(sampleNfeRequest({ payment: [{ method: 'pix', amount: '120.00' }] }));
    const first = computeNfeDocument(request, issuer, context);
    const second = computeNfeDocument(request, issuer, context);
    const stored = computeNfeDocument(JSON.parse(JSON.stringify(request)) as ValidatedInvoiceRequest, issuer, context);
    expect(second).toEqual(first);
    expect(stored).toEqual(first);
    // each document owns its objects: nothing computed is shared between two builds
    expect(second.det[0]!.imposto).not.toBe(first.det[0]!.imposto);
    expect(second.total.ICMSTot).not.toBe(first.total.ICMSTot);
    // a copy with another final-consumer flag keeps the items array but must not reuse their taxes
    const other = computeNfeDocument({ ...request, finalConsumer: false }, issuer, context);
    expect(other.ide.indFinal).toBe('0');
  });
  it('fills ide from the request and the context', () => {
    const { ide } = computeNfeDocument(validated(sampleNfeRequest()), issuer, context);
    expect(ide).toEqual({
      cUF: '35',
      cNF: ide.cNF,
      natOp: 'VENDA',
      mod: '55',
      serie: '1',
      nNF: '42',
      dhEmi: '2026-03-10T12:04:05-03:00',
      tpNF: '1',
      idDest: '1',
      cMunFG: '3550308',
      tpImp: '1',
      tpEmis: '1',
      cDV: ide.cDV,
      tpAmb: '2',
      finNFe: '1',
      indFinal: '1',
      indPres: '1',
      procEmi: '0',
      verProc: 'Talao 1.0',
    });
  });
  it('homologation replaces the recipient name; production keeps it', () => {
    expect(computeNfeDocument(validated(sampleNfeRequest()), issuer, context).dest.xNome).toBe(HOMOLOGATION_RECIPIENT_NAME);
    const prod = computeNfeDocument(validated(sampleNfeRequest()), issuer, { ...context, environment: 'production' });
    expect(prod.dest).toMatchObject({
      CPF: '12345678909',
      xNome: 'Maria da Silva',
      indIEDest: '9',
      enderDest: { cMun: '3550308', xMun: 'São Paulo', UF: 'SP', CEP: '01305000', cPais: '1058' },
    });
    expect(prod.ide.tpAmb).toBe('1');
  });
  it('contingency SVC-AN / SVC-RS: tpEmis 6 / 7 with dhCont and xJust, in the key too', () => {
    const c = { type: 'SVC-RS' as const, at: new Date('2026-03-10T14:00:00Z'), reason: 'SEFAZ SP indisponivel desde 11h' };
    const doc = computeNfeDocument(validated(sampleNfeRequest()), issuer, { ...context, contingency: c });
    expect(doc.ide.tpEmis).toBe('7');
    expect(doc.ide.contingency).toEqual({ dhCont: '2026-03-10T11:00:00-03:00', xJust: c.reason });
    expect(parseAccessKey(doc.accessKey)!.emissionType).toBe(7);
    expect(
      computeNfeDocument(validated(sampleNfeRequest()), issuer, { ...context, contingency: { ...c, type: 'SVC-AN' } }).ide.tpEmis,
    ).toBe('6');
    expect(() => computeNfeDocument(validated(sampleNfeRequest()), issuer, { ...context, contingency: { ...c, reason: 'curta' } })).toThrow(
      RangeError,
    );
  });
  it('emit from the company; infRespTec with hashCSRT = base64(SHA-1(CSRT + key))', () => {
    const csrt = { id: '01', secret: 'G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO' };
    const doc = computeNfeDocument(validated(sampleNfeRequest()), issuer, {
      ...context,
      technicalResponsible: { ...SAMPLE_TECHNICAL_RESPONSIBLE, csrt },
    });
    expect(doc.emit).toMatchObject({
      CNPJ: '11222333000181',
      xNome: 'TALAO DEMONSTRACAO LTDA',
      IE: '110042490114',
      IM: '12345678',
      CRT: '3',
      enderEmit: { xMun: 'São Paulo', UF: 'SP', cPais: '1058', xPais: 'Brasil' },
    });
    expect(doc.infRespTec.idCSRT).toBe('01');
    expect(doc.infRespTec.hashCSRT).toBe(
      createHash('sha1')
        .update(csrt.secret + doc.accessKey)
        .digest('base64'),
    );
  });
  it('prod: fixed places, SEM GTIN, zero extras omitted; totals and IBSCBSTot; change', () => {
    const body = sampleNfeRequest({
      items: [
        sampleNfeItem({
          quantity: '3',
          unit_price: '0.335',
          product: { code: 'SKU-1', barcode: '7891000315507', discount: '0.01', freight: '2' },
        }),
        sampleNfeItem({ quantity: '1.5', amount: '10' }),
      ],
      payment: [{ method: 'cash', amount: '20' }],
    });
    const doc = computeNfeDocument(validated(body), issuer, context);
    expect(doc.det[0]!.prod).toMatchObject({
      qCom: '3.0000',
      vUnCom: '0.3350000000',
      vProd: '1.01',
      vDesc: '0.01',
      vFrete: '2.00',
      cEAN: '7891000315507',
    });
    expect(doc.det[0]!.prod.vSeg).toBeUndefined();
    expect(doc.det[1]!.prod).toMatchObject({
      qCom: '1.5000',
      vUnCom: '6.6666666667',
      vProd: '10.00',
      cEAN: 'SEM GTIN',
      cEANTrib: 'SEM GTIN',
    });
    expect(doc.total.ICMSTot).toMatchObject({
      vProd: '11.01',
      vDesc: '0.01',
      vFrete: '2.00',
      vBC: '13.00',
      vICMS: '2.34',
      vPIS: '0.22',
      vCOFINS: '0.99',
      vNF: '13.00',
    });
    // rounded per item, then summed: PIS 0.0495 → 0.05 and 0.165 → 0.17 (half-up); COFINS 0.228 → 0.23 and 0.76
    expect(doc.total.IBSCBSTot).toMatchObject({
      vBCIBSCBS: '13.00',
      gIBS: { gIBSUF: { vIBSUF: '0.01' }, vIBS: '0.01' },
      gCBS: { vCBS: '0.12' },
    });
    expect(doc.pag).toEqual({ detPag: [{ tPag: '01', vPag: '20.00' }], vTroco: '7.00' });
    expect(doc.transp).toEqual({ modFrete: '9' });
  });
  it('manufacturer_cnpj: CNPJFab with indEscala N, beside CEST', () => {
    const doc = computeNfeDocument(
      validated(
        sampleNfeRequest({
          items: [
            sampleNfeItem({
              unit_price: '10',
              tax: { icms: { cst: '60', origin: '0' }, pis: { cst: '01', rate: '1.65' }, cofins: { cst: '01', rate: '7.6' } },
              br: { cest: '2806300', manufacturer_cnpj: '12ABC34501DE35' },
            }),
          ],
        }),
      ),
      issuer,
      context,
    );
    expect(doc.det[0]!.prod).toMatchObject({ CEST: '2806300', indEscala: 'N', CNPJFab: '12ABC34501DE35' });
    expect(computeNfeDocument(validated(sampleNfeRequest()), issuer, context).det[0]!.prod.CNPJFab).toBeUndefined();
  });
  it('interstate and foreign destinations', () => {
    const foreign = validated(
      sampleNfeRequest({
        client_name: 'John Doe',
        tax_id: '',
        client_email: undefined,
        recipient_address: {
          street: 'Main St',
          number: '1',
          neighborhood: 'Downtown',
          city: 'Boston',
          country_code: 'US',
          bacen_country_code: '2496',
        },
        items: [sampleNfeItem({ unit_price: '10', cfop: '7102' })],
      }),
    );
    const doc = computeNfeDocument(foreign, issuer, { ...context, environment: 'production' });
    expect(doc.ide.idDest).toBe('3');
    expect(doc.dest).toMatchObject({
      idEstrangeiro: '',
      xNome: 'John Doe',
      indIEDest: '9',
      enderDest: { cMun: '9999999', xMun: 'EXTERIOR', UF: 'EX', cPais: '2496' },
    });
  });
  it('refuses an issuer without IE and an nfse request', () => {
    expect(() =>
      computeNfeDocument(validated(sampleNfeRequest()), sampleIssuer('normal', { stateRegistration: undefined }), context),
    ).toThrow(/state registration/);
    expect(() => computeNfeDocument(validated(sampleNfseRequest()), issuer, context)).toThrow(RangeError);
  });
});

describe('computeDpsDocument', () => {
  const dpsContext = { environment: 'production' as const, series: 1, number: 7, issuedAt: NOW };
  it('combines items of one service: descriptions joined, values summed, discounts unconditional', () => {
    const body = sampleNfseRequest({
      client_name: 'Joao',
      tax_id: '12345678909',
      client_email: 'j@example.com',
      recipient_address: SAMPLE_RJ_ADDRESS,
      items: [
        {
          description: 'Consultoria',
          unit_price: '150',
          product: { quantity: '2' },
          discount: '10',
          service_code: '1.07',
          observations: 'Horas de março',
          ibs_cbs: SAMPLE_IBS_CBS,
        },
        { description: 'Deslocamento', amount: '55', ibs_cbs: SAMPLE_IBS_CBS },
      ],
      additional_info: 'Contrato 12',
    });
    const dps = computeDpsDocument(validated(body), issuer, dpsContext);
    expect(dps.id).toBe('DPS355030821122233300018100001000000000000007');
    expect(dps.id).toMatch(/^DPS\d{42}$/);
    expect(dps).toMatchObject({
      tpAmb: '1',
      dhEmi: '2026-03-10T12:04:05-03:00',
      dCompet: '2026-03-10',
      serie: '1',
      nDPS: '7',
      tpEmit: '1',
      cLocEmi: '3550308',
    });
    expect(dps.prest).toEqual({
      CNPJ: '11222333000181',
      IM: '12345678',
      fone: '1133334444',
      email: 'fiscal@talao.example',
      regTrib: { opSimpNac: '1', regEspTrib: '0' },
    });
    expect(dps.toma).toEqual({
      CPF: '12345678909',
      xNome: 'Joao',
      end: { endNac: { cMun: '3304557', CEP: '22220000' }, xLgr: 'Rua do Catete', nro: '90', xBairro: 'Catete' },
      email: 'j@example.com',
    });
    expect(dps.serv).toEqual({
      locPrest: { cLocPrestacao: '3550308' },
      cServ: { cTribNac: '010701', xDescServ: 'Consultoria; Deslocamento' },
      infoCompl: { xInfComp: 'Horas de março | Contrato 12' },
    });
    expect(dps.valores.trib.tribMun).toEqual({ tribISSQN: '1', tpRetISSQN: '1' });
    expect(dps.valores.vServPrest.vServ).toBe('355.00');
    expect(dps.valores.vDescCondIncond).toEqual({ vDescIncond: '10.00' });
    expect(dps.IBSCBS).toEqual({
      finNFSe: '0',
      indFinal: '1',
      cIndOp: '100301',
      indDest: '0',
      valores: { trib: { gIBSCBS: { CST: '000', cClassTrib: '000001' } } },
    });
  });
  it('Simples Nacional provider; no IBS/CBS group when items have none', () => {
    const dpsOf = (regime: 'simples_nacional' | 'simples_nacional_excess') => {
      const provider = sampleIssuer(regime);
      const body = sampleNfseRequest({ items: [{ description: 'Suporte', amount: 10 }] });
      return computeDpsDocument(validated(body, provider), provider, dpsContext);
    };
    const dps = dpsOf('simples_nacional');
    expect(dps.prest.regTrib).toEqual({ opSimpNac: '3', regApTribSN: '1', regEspTrib: '0' });
    // Past the sublimit (CRT 2) the ISSQN is owed outside the Simples: regApTribSN 2.
    expect(dpsOf('simples_nacional_excess').prest.regTrib).toEqual({ opSimpNac: '3', regApTribSN: '2', regEspTrib: '0' });
    expect(dps.IBSCBS).toBeUndefined();
    expect(dps.toma).toEqual({ CNPJ: '11222333000181', xNome: 'Cliente Servicos Ltda' });
  });
  it('a taker abroad is named by its NIF (tax_id), without the address the request cannot structure', () => {
    const abroad = { street: '5th Avenue', number: '1', neighborhood: 'Midtown', city: 'New York', country_code: 'US' };
    const body = sampleNfseRequest({ tax_id: 'US-123456789', recipient_address: abroad });
    const dps = computeDpsDocument(validated(body), issuer, { ...dpsContext, environment: 'production' });
    expect(dps.toma).toEqual({ NIF: 'US-123456789', xNome: 'Cliente Servicos Ltda' });
    expect(validateInvoiceRequest({ ...body, tax_id: '' }, issuer, { now: NOW }).ok).toBe(false);
  });
  it('tax_retained → tpRetISSQN 2; observations alone fill xInfComp', () => {
    const simples = sampleIssuer('simples_nacional');
    const body = sampleNfseRequest({
      items: [{ description: 'Limpeza', amount: '200', tax_retained: true, observations: 'ISS retido pelo tomador' }],
    });
    const dps = computeDpsDocument(validated(body, simples), simples, dpsContext);
    expect(dps.valores.trib.tribMun).toEqual({ tribISSQN: '1', tpRetISSQN: '2' });
    expect(dps.serv.infoCompl).toEqual({ xInfComp: 'ISS retido pelo tomador' });
  });
  it('homologation sends the test phrase as the taker name (SPEC.md "What the service does" 8)', () => {
    const dps = computeDpsDocument(validated(sampleNfseRequest()), issuer, { ...dpsContext, environment: 'homologation' });
    expect(dps.tpAmb).toBe('2');
    expect(dps.toma!.xNome).toBe(HOMOLOGATION_RECIPIENT_NAME);
    expect(dps.toma!.CNPJ).toBe('11222333000181');
  });
  it('dpsId: CPF issuer is type 1; alphanumeric CNPJ refused by the v1.01 schema', () => {
    expect(dpsId('3550308', '12345678909', 0, 1)).toBe('DPS355030810001234567890900000000000000000001');
    expect(() => dpsId('3550308', '12ABC34501DE35', 1, 1)).toThrow(RangeError);
  });
});

describe('localTime', () => {
  it('uses each state offset, no DST', () => {
    expect(localTime(new Date('2026-01-01T02:30:00Z'), 'SP')).toEqual({
      dateTime: '2025-12-31T23:30:00-03:00',
      date: '2025-12-31',
      yearMonth: '2512',
    });
    expect(localTime(new Date('2026-07-01T12:00:00Z'), 'AM').dateTime).toBe('2026-07-01T08:00:00-04:00');
    expect(localTime(new Date('2026-07-01T12:00:00Z'), 'AC').dateTime).toBe('2026-07-01T07:00:00-05:00');
  });
});
