// Validation of the recipient: client_name, tax_id, final consumer and recipient_address (SPEC.md "Invoice request", "Address").
import { SAMPLE_RJ_ADDRESS, sampleNfeItem, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import { firstRequestError, requestErrors, validRequest } from '../testing/validation.js';

const SP = {
  street: 'Rua X',
  number: '1',
  neighborhood: 'Centro',
  city: 'Sao Paulo',
  state: 'SP',
  zip_code: '01000000',
  city_code: '3550308',
};
const RJ = SAMPLE_RJ_ADDRESS;
const withAddress = (address: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  sampleNfeRequest({ recipient_address: address, ...top });

describe('recipient: client_name, tax_id (SPEC.md "Invoice request")', () => {
  it('tax_id: the length decides (11 CPF, 14 CNPJ), alphanumeric CNPJ accepted, shape only', () => {
    expect(validRequest(sampleNfeRequest({ tax_id: '12345678909' })).buyer.taxId).toEqual({ kind: 'cpf', value: '12345678909' });
    expect(validRequest(sampleNfeRequest({ tax_id: '11222333000181' })).buyer.taxId).toEqual({ kind: 'cnpj', value: '11222333000181' });
    expect(validRequest(sampleNfeRequest({ tax_id: '12ABC34501DE35' })).buyer.taxId).toEqual({ kind: 'cnpj', value: '12ABC34501DE35' });
    // no check-digit rule: a CPF with "wrong" check digits has the right shape
    expect(validRequest(sampleNfeRequest({ tax_id: '12345678900' })).buyer.taxId).toEqual({ kind: 'cpf', value: '12345678900' });
  });
  it('TAX_ID_INVALID for any other length or shape, punctuation included', () => {
    for (const taxId of [
      '1234567890',
      '123456789012',
      '1234567890A',
      '12ABC34501DE3X',
      '123.456.789-09',
      '12.ABC.345/01DE-35',
      '12abc34501de35',
      '',
    ]) {
      expect(firstRequestError(sampleNfeRequest({ tax_id: taxId }))).toEqual({ code: 'TAX_ID_INVALID', field: 'tax_id' });
    }
  });
  it('client_name: 1–120 for the request; an NF-e carries 2–60 (dest/xNome), refused with document type and limit, never cut', () => {
    const [long] = requestErrors(sampleNfeRequest({ client_name: 'A'.repeat(61) }));
    expect(long).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'client_name',
      message: expect.stringMatching(/NF-e.*dest\/xNome.*2 to 60.*nfe/),
      expected: '2–60 characters for nfe',
      received: 'A'.repeat(61),
    });
    expect(firstRequestError(sampleNfeRequest({ client_name: 'A' }))).toEqual({ code: 'FIELD_INVALID', field: 'client_name' });
    expect(validRequest(sampleNfeRequest({ client_name: 'A'.repeat(60) })).buyer.name).toHaveLength(60);
    // the DPS's toma/xNome holds 1–300: the whole 120 and a single character go through
    expect(validRequest(sampleNfseRequest({ client_name: 'B'.repeat(120) })).buyer.name).toHaveLength(120);
    expect(validRequest(sampleNfseRequest({ client_name: 'B' })).buyer.name).toBe('B');
  });
  it('additive client_state_registration, client_email, client_phone', () => {
    const v = validRequest(
      sampleNfeRequest({ tax_id: '11222333000181', client_state_registration: '110042490114', client_phone: '1133334444' }),
    );
    expect(v.buyer).toMatchObject({ stateRegistration: '110042490114', email: 'maria@example.com', phone: '1133334444' });
    expect(v.finalConsumer).toBe(false);
    expect(firstRequestError(sampleNfeRequest({ client_state_registration: 'X1' }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'client_state_registration',
    });
    expect(firstRequestError(sampleNfeRequest({ client_email: 'not-an-email' }))).toEqual({ code: 'FIELD_INVALID', field: 'client_email' });
  });
  it('final consumer: default true for CPF / no IE; false refused without IE (rejection 696)', () => {
    expect(validRequest(sampleNfeRequest()).finalConsumer).toBe(true);
    expect(firstRequestError(sampleNfeRequest({ final_consumer: false }))).toEqual({
      code: 'FINAL_CONSUMER_REQUIRED',
      field: 'final_consumer',
    });
  });
});

describe('recipient_address (SPEC.md "Address")', () => {
  it('reads street, number, neighborhood, state, zip_code, city_code; the code decides the city', () => {
    const v = validRequest(withAddress({ ...SP, city: 'Sampa', complement: 'Apto 2' }));
    expect(v.buyer.address).toEqual({
      street: 'Rua X',
      number: '1',
      complement: 'Apto 2',
      district: 'Centro',
      cityCode: '3550308',
      cityName: 'São Paulo',
      state: 'SP',
      postalCode: '01000000',
      countryCode: 'BR',
      bacenCountryCode: '1058',
    });
  });
  it('ADDRESS_REQUIRED on NF-e, optional on NFS-e', () => {
    expect(firstRequestError(sampleNfeRequest({ recipient_address: undefined }))).toEqual({
      code: 'ADDRESS_REQUIRED',
      field: 'recipient_address',
    });
    expect(validRequest(sampleNfseRequest()).buyer.address).toBeUndefined();
    expect(validRequest(sampleNfseRequest({ recipient_address: RJ })).buyer.address).toMatchObject({
      cityCode: '3304557',
      district: 'Catete',
    });
  });
  it('every field of a Brazilian address is required; "S/N" is the number when there is none', () => {
    for (const key of ['street', 'number', 'neighborhood', 'city']) {
      expect(firstRequestError(withAddress({ ...SP, [key]: undefined }))).toEqual({
        code: 'FIELD_REQUIRED',
        field: `recipient_address.${key}`,
      });
    }
    for (const key of ['state', 'zip_code', 'city_code']) {
      expect(firstRequestError(withAddress({ ...SP, [key]: undefined }))).toEqual({
        code: 'FIELD_REQUIRED',
        field: `recipient_address.${key}`,
      });
      expect(firstRequestError(sampleNfseRequest({ recipient_address: { ...RJ, [key]: undefined } }))).toEqual({
        code: 'FIELD_REQUIRED',
        field: `recipient_address.${key}`,
      });
    }
    expect(validRequest(withAddress({ ...SP, number: 'S/N' })).buyer.address!.number).toBe('S/N');
  });
  it.each([
    ['formats: zip_code 8 digits without hyphen', 'zip_code', '01000-000', 'FIELD_INVALID'],
    ['formats: city_code 7 digits', 'city_code', '355030', 'FIELD_INVALID'],
    ['formats: state 2 letters', 'state', 'São Paulo', 'FIELD_INVALID'],
    ['CITY_CODE_UNKNOWN: a wrong code is refused even with the right name', 'city_code', '3550309', 'CITY_CODE_UNKNOWN'],
    ['STATE_CITY_MISMATCH: a state other than the one of city_code', 'state', 'RJ', 'STATE_CITY_MISMATCH'],
  ])('%s', (_rule, key, value, code) => {
    expect(firstRequestError(withAddress({ ...SP, [key]: value }))).toEqual({ code, field: `recipient_address.${key}` });
  });
  it('NF-e layout limits on the address: xLgr and xBairro 2–60', () => {
    const [e] = requestErrors(withAddress({ ...SP, neighborhood: 'C' }));
    expect(e).toMatchObject({ code: 'FIELD_INVALID', field: 'recipient_address.neighborhood', expected: '2–60 characters for nfe' });
    expect(firstRequestError(withAddress({ ...SP, street: 'R' }))).toEqual({ code: 'FIELD_INVALID', field: 'recipient_address.street' });
    expect(firstRequestError(withAddress({ ...SP, street: 'R'.repeat(61) }))).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'recipient_address.street',
    });
    expect(validRequest(sampleNfseRequest({ recipient_address: { ...RJ, neighborhood: 'C' } })).buyer.address!.district).toBe('C');
  });
  it('destination: internal, interstate (CFOP 6, DIFAL for a CPF), foreign (additive country_code)', () => {
    expect(validRequest(sampleNfeRequest()).destination).toBe('internal');
    expect(firstRequestError(withAddress(RJ))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
    expect(
      firstRequestError(sampleNfeRequest({ recipient_address: RJ, items: [sampleNfeItem({ unit_price: '10', cfop: '6102' })] })),
    ).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms_destination',
    });
    const difalTax = {
      icms: { cst: '00', origin: '0', rate: '12' },
      icms_destination: { rate: '20', interstate_rate: '12' },
      pis: { cst: '07' },
      cofins: { cst: '07' },
    };
    expect(
      validRequest(sampleNfeRequest({ recipient_address: RJ, items: [sampleNfeItem({ unit_price: '10', cfop: '6102', tax: difalTax })] }))
        .destination,
    ).toBe('interstate');
    expect(firstRequestError(sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', tax: difalTax })] }))).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.icms_destination',
    });
    const abroad = {
      street: 'Rua Augusta',
      number: '10',
      neighborhood: 'Baixa',
      city: 'Lisboa',
      country_code: 'PT',
      bacen_country_code: '6076',
    };
    const foreign = sampleNfeRequest({
      tax_id: 'PT123456789',
      recipient_address: abroad,
      items: [sampleNfeItem({ unit_price: '10', cfop: '7102' })],
    });
    const v = validRequest(foreign);
    expect(v.destination).toBe('foreign');
    expect(v.buyer).toMatchObject({
      foreign: true,
      foreignId: 'PT123456789',
      address: { cityCode: '9999999', state: 'EX', cityName: 'EXTERIOR', bacenCountryCode: '6076' },
    });
    expect(v.finalConsumer).toBe(false);
    expect(firstRequestError({ ...foreign, tax_id: 'PT12' })).toEqual({ code: 'TAX_ID_INVALID', field: 'tax_id' });
    expect(firstRequestError({ ...foreign, recipient_address: { ...abroad, bacen_country_code: undefined } })).toEqual({
      code: 'FIELD_REQUIRED',
      field: 'recipient_address.bacen_country_code',
    });
    expect(firstRequestError({ ...foreign, recipient_address: { ...abroad, country_code: 'XX' } })).toEqual({
      code: 'FIELD_INVALID',
      field: 'recipient_address.country_code',
    });
  });
});
