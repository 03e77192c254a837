import {
  escapeHtml,
  formatDate,
  formatDateTime,
  formatDecimal,
  formatMoney,
  formatMoneyOrZero,
  formatNfeNumber,
  formatPostalCode,
  formatTaxId,
  groupAccessKey,
} from './text.js';

describe('print formatting', () => {
  it('prints decimals in Brazilian notation without rounding or floats', () => {
    expect(formatMoney('164746.81')).toBe('164.746,81');
    expect(formatMoney('0.1')).toBe('0,10');
    expect(formatMoney('1000000')).toBe('1.000.000,00');
    expect(formatMoney('-5.5')).toBe('-5,50');
    expect(formatDecimal('2.4800000000', 2)).toBe('2,48');
    expect(formatDecimal('6.0000', 4)).toBe('6,0000');
    expect(formatDecimal('0.12345678', 2)).toBe('0,12345678');
    expect(formatDecimal('99999999999999.99')).toBe('99.999.999.999.999,99');
    expect(formatMoneyOrZero(undefined)).toBe('0,00');
    expect(formatMoney('abc')).toBe('abc');
  });

  it('prints dates as written, in their own offset', () => {
    expect(formatDate('2025-07-01T23:30:00-03:00')).toBe('01/07/2025');
    expect(formatDateTime('2026-03-10T12:00:01-03:00')).toBe('10/03/2026 12:00:01');
    expect(formatDate('2026-01-08')).toBe('08/01/2026');
    expect(formatDateTime(undefined)).toBe('');
  });

  it('punctuates CNPJ (numeric and alphanumeric), CPF and CEP', () => {
    expect(formatTaxId('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatTaxId('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatTaxId('12345678909')).toBe('123.456.789-09');
    expect(formatPostalCode('01310100')).toBe('01310-100');
  });

  it('groups the access key by four and pads the NF-e number to nine digits', () => {
    expect(groupAccessKey('35260311222333000181550010000012341000012349')).toBe('3526 0311 2223 3300 0181 5500 1000 0012 3410 0001 2349');
    expect(formatNfeNumber('1234')).toBe('000.001.234');
  });

  it('escapes every character HTML would interpret', () => {
    expect(escapeHtml(`<b a="1">&'</b>`)).toBe('&lt;b a=&quot;1&quot;&gt;&amp;&#39;&lt;/b&gt;');
  });
});
