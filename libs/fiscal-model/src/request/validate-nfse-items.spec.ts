// Validation of the IBS/CBS group (NF-e and NFS-e) and of an NFS-e's items (SPEC.md "IbsCbs group", "Item").
import { SAMPLE_IBS_CBS, sampleIssuer, sampleNfeItem, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import { firstRequestError, requestErrors, validateSample, validRequest } from '../testing/validation.js';

const normal = sampleIssuer('normal');
const simples = sampleIssuer('simples_nacional');
const service = (x: Record<string, unknown> = {}) => ({ description: 'Servico', amount: '100', ...x });

describe('IBS/CBS group (SPEC.md "IbsCbs group")', () => {
  const noIbs = () => sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', ibs_cbs: null })] });
  it('NF-e: at product.br.ibs_cbs; IBS_CBS_REQUIRED for CRT 3 from 2026', () => {
    expect(validRequest(sampleNfeRequest()).items[0]!.ibsCbs).toEqual(SAMPLE_IBS_CBS);
    expect(firstRequestError(noIbs())).toEqual({ code: 'IBS_CBS_REQUIRED', field: 'items[0].product.br.ibs_cbs' });
  });
  it('not required before 2026 (issuer local time) nor outside the normal regime; an item without it emits nothing', () => {
    expect(validateSample(noIbs(), normal, new Date('2026-01-01T02:59:59Z')).ok).toBe(true); // still 2025 in São Paulo
    expect(validateSample(noIbs(), normal, new Date('2026-01-01T03:00:00Z')).ok).toBe(false);
    const simplesBody = sampleNfeRequest({
      items: [
        sampleNfeItem({
          unit_price: '10',
          ibs_cbs: null,
          tax: { icms: { csosn: '102', origin: '0' }, pis: { cst: '49', rate: '0' }, cofins: { cst: '49', rate: '0' } },
        }),
      ],
    });
    const v = validRequest(simplesBody, simples);
    expect(v.items[0]!.ibsCbs).toBeUndefined();
  });
  describe('rates: ≤ 4 places, ≤ 100; cst 3 digits; base optional', () => {
    const ibs = (x: Record<string, unknown>) =>
      sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', ibs_cbs: { ...SAMPLE_IBS_CBS, ...x } })] });
    it.each([
      { key: 'rate_state', value: '0.12345', code: 'ITEM_PRECISION_UNSUPPORTED' },
      { key: 'rate_federal', value: '100.01', code: 'FIELD_OUT_OF_RANGE' },
      { key: 'cst', value: '00', code: 'FIELD_INVALID' },
    ])('refuses $key $value: $code', ({ key, value, code }) => {
      expect(firstRequestError(ibs({ [key]: value }))).toEqual({ code, field: `items[0].product.br.ibs_cbs.${key}` });
    });
    it('carries the base', () => {
      expect(validRequest(ibs({ base: '50.5' })).items[0]!.ibsCbs!.base).toBe('50.5');
    });
  });
  it('NFS-e: at the item (additive), since an NFS-e ignores product.br', () => {
    expect(validRequest(sampleNfseRequest()).items[0]!.ibsCbs).toEqual({ ...SAMPLE_IBS_CBS, operation_indicator: '100301' });
    expect(firstRequestError(sampleNfseRequest({ items: [service()] }))).toEqual({ code: 'IBS_CBS_REQUIRED', field: 'items[0].ibs_cbs' });
    // product.br.ibs_cbs of an NFS-e line is ignored like the rest of product.br
    expect(firstRequestError(sampleNfseRequest({ items: [service({ product: { br: { ibs_cbs: SAMPLE_IBS_CBS } } })] }))).toEqual({
      code: 'IBS_CBS_REQUIRED',
      field: 'items[0].ibs_cbs',
    });
  });
});

describe('NFS-e items (SPEC.md "Item": discount, service_code, tax_retained, observations)', () => {
  const nfse = (...items: Record<string, unknown>[]) => sampleNfseRequest({ items });
  it('SERVICE_CODES_MIXED when items carry different service codes', () => {
    expect(firstRequestError(nfse(service({ service_code: '1.07' }), service({ service_code: '17.01' })), simples)).toEqual({
      code: 'SERVICE_CODES_MIXED',
      field: 'items[1].service_code',
    });
  });
  it('same service in different spellings combines; default from the company', () => {
    const v = validRequest(nfse(service({ service_code: '1.07' }), service({ service_code: '010701' }), service()), simples);
    expect(v.items.map((i) => i.serviceCode)).toEqual(['010701', '010701', '010701']);
  });
  it('SERVICE_CODE_REQUIRED and SERVICE_CODE_UNKNOWN', () => {
    const noDefault = sampleIssuer('simples_nacional', { defaultServiceCode: undefined });
    expect(firstRequestError(nfse(service()), noDefault)).toEqual({ code: 'SERVICE_CODE_REQUIRED', field: 'items[0].service_code' });
    expect(firstRequestError(nfse(service({ service_code: '99.99' })), noDefault)).toEqual({
      code: 'SERVICE_CODE_UNKNOWN',
      field: 'items[0].service_code',
    });
  });
  it('discount: the unconditional service discount', () => {
    expect(validRequest(nfse(service({ discount: '10' })), simples).items[0]).toMatchObject({
      gross: '100.00',
      discount: '10.00',
      total: '90.00',
    });
  });
  it('tax_retained: boolean, one value for the whole NFS-e', () => {
    expect(validRequest(nfse(service({ tax_retained: true }), service({ tax_retained: true })), simples).items[0]!.taxRetained).toBe(true);
    expect(validRequest(nfse(service({ tax_retained: false })), simples).items[0]!.taxRetained).toBeUndefined();
    expect(firstRequestError(nfse(service({ tax_retained: true }), service()), simples)).toEqual({
      code: 'FIELD_INVALID',
      field: 'items[1].tax_retained',
    });
    expect(firstRequestError(nfse(service({ tax_retained: 'yes' })), simples)).toEqual({
      code: 'FIELD_INVALID',
      field: 'items[0].tax_retained',
    });
  });
  it('observations: up to 2000, sharing the DPS xInfComp (2000) with the other items and additional_info', () => {
    expect(validRequest(nfse(service({ observations: 'O'.repeat(2000) })), simples).items[0]!.observations).toHaveLength(2000);
    expect(firstRequestError(nfse(service({ observations: 'O'.repeat(2001) })), simples)).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'items[0].observations',
    });
    const [e] = requestErrors(nfse(service({ observations: 'O'.repeat(1000) }), service({ observations: 'P'.repeat(1000) })), simples);
    expect(e).toMatchObject({
      code: 'FIELD_TOO_LONG',
      field: 'items[1].observations',
      expected: 'at most 2000 characters together for nfse',
      received: 2003,
    });
    expect(
      firstRequestError(
        sampleNfseRequest({ items: [service({ observations: 'O'.repeat(1500) })], additional_info: 'A'.repeat(600) }),
        simples,
      ),
    ).toEqual({ code: 'FIELD_TOO_LONG', field: 'additional_info' });
  });
  it('TAX_ID_INVALID for an alphanumeric CNPJ (DPS v1.01 is numeric only)', () => {
    expect(firstRequestError(sampleNfseRequest({ tax_id: '12ABC34501DE35' }), simples)).toEqual({
      code: 'TAX_ID_INVALID',
      field: 'tax_id',
    });
  });
  it('ignores product.br (and unit, barcode, code); refuses the NF-e amounts of product and NF-e-only fields', () => {
    expect(
      validRequest(nfse(service({ product: { unit: 'HORAS12', br: { ncm: '1', cfop: '9' } } })), simples).items[0]!.product,
    ).toBeUndefined();
    expect(firstRequestError(nfse(service({ product: { discount: '1' } })), simples)).toEqual({
      code: 'FIELD_NOT_APPLICABLE',
      field: 'items[0].product.discount',
    });
    expect(firstRequestError(nfse(service({ product: { freight: '1' } })), simples)).toEqual({
      code: 'FIELD_NOT_APPLICABLE',
      field: 'items[0].product.freight',
    });
    expect(firstRequestError(sampleNfseRequest({ contingency: true }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'contingency' });
    expect(firstRequestError(sampleNfseRequest({ payment: [{ method: 'pix' }] }))).toEqual({
      code: 'FIELD_NOT_APPLICABLE',
      field: 'payment',
    });
  });
  it('one IBS/CBS classification per DPS', () => {
    const body = nfse(service({ ibs_cbs: SAMPLE_IBS_CBS }), service({ ibs_cbs: { ...SAMPLE_IBS_CBS, classification: '000002' } }));
    expect(firstRequestError(body)).toEqual({ code: 'FIELD_INVALID', field: 'items[1].ibs_cbs' });
  });
});
