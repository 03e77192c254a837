import { isCnpjShape, isCpfShape, normalizeTaxId, parseTaxId } from './tax-id.js';
import { gtinCheckDigit, isValidGtin } from './gtin.js';

describe('parseTaxId', () => {
  it('decides CPF by 11 characters and CNPJ by 14', () => {
    expect(parseTaxId('12345678909')).toEqual({ kind: 'cpf', value: '12345678909' });
    expect(parseTaxId('11222333000181')).toEqual({ kind: 'cnpj', value: '11222333000181' });
  });
  it('accepts alphanumeric CNPJ (12 letters or digits, then 2 digits)', () => {
    expect(parseTaxId('12ABC34501DE35')).toEqual({ kind: 'cnpj', value: '12ABC34501DE35' });
    expect(parseTaxId('12.abc.345/01de-35')).toEqual({ kind: 'cnpj', value: '12ABC34501DE35' });
    expect(parseTaxId('12ABC34501DEX5')).toBeNull();
  });
  it('checks shape only, never the old numeric check digits', () => {
    // wrong check digits on purpose: still a valid shape
    expect(parseTaxId('12345678900')).toEqual({ kind: 'cpf', value: '12345678900' });
    expect(parseTaxId('11222333000100')).toEqual({ kind: 'cnpj', value: '11222333000100' });
  });
  it('refuses other lengths, letters in a CPF and non-strings', () => {
    for (const bad of ['', '1234567890', '123456789012', '1234567890A', '1122233300018', '112223330001811', 12345678909, null]) {
      expect(parseTaxId(bad)).toBeNull();
    }
  });
  it('removes formatting punctuation', () => {
    expect(normalizeTaxId('123.456.789-09')).toBe('12345678909');
    expect(parseTaxId('11.222.333/0001-81')?.kind).toBe('cnpj');
  });
  it('exposes the shape predicates', () => {
    expect(isCpfShape('12345678909')).toBe(true);
    expect(isCpfShape('1234567890A')).toBe(false);
    expect(isCnpjShape('ABCDEFGHIJKL12')).toBe(true);
    expect(isCnpjShape('abcdefghijkl12')).toBe(false);
    expect(isCnpjShape('11222333000A81')).toBe(true);
    expect(isCnpjShape('112223330001A1')).toBe(false);
  });
});

describe('GTIN', () => {
  it('verifies real GTIN-8/12/13/14 check digits', () => {
    expect(isValidGtin('96385074')).toBe(true); // GS1 example GTIN-8
    expect(isValidGtin('036000291452')).toBe(true); // UPC-A
    expect(isValidGtin('7891000315507')).toBe(true); // EAN-13 (Brazil prefix 789)
    expect(isValidGtin('4006381333931')).toBe(true);
    expect(isValidGtin('17891000315504')).toBe(true); // GTIN-14 with indicator 1
  });
  it('refuses a wrong check digit and wrong lengths', () => {
    expect(isValidGtin('7891000315508')).toBe(false);
    expect(isValidGtin('96385075')).toBe(false);
    expect(isValidGtin('789100031550')).toBe(false); // 12 digits, wrong UPC digit
    expect(isValidGtin('1234567')).toBe(false);
    expect(isValidGtin('SEM GTIN')).toBe(false);
    expect(isValidGtin('78910003155O7')).toBe(false);
  });
  it('computes the check digit, including 0', () => {
    expect(gtinCheckDigit('789100031550')).toBe(7);
    expect(gtinCheckDigit('1789100031550')).toBe(4);
    expect(gtinCheckDigit('0000000')).toBe(0);
  });
});
