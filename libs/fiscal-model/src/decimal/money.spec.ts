import { Dec, decimalPlaces, decimalText, money, percentOf, rate, round2, sum } from './money.js';

describe('decimal money', () => {
  it('reads JSON numbers through their shortest decimal text', () => {
    expect(decimalText(0.1)).toBe('0.1');
    expect(decimalText(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(decimalPlaces(decimalText(0.1 + 0.2)!)).toBe(17);
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(1e21)).toBe('1000000000000000000000');
    expect(decimalText(Number.NaN)).toBeNull();
    expect(decimalText(Infinity)).toBeNull();
  });
  it('reads only plain decimal strings', () => {
    expect(decimalText(' 12.50 ')).toBe('12.5');
    expect(decimalText('-3')).toBe('-3');
    for (const bad of ['1e3', '1,5', '', '.5', '5.', '0x10', 'abc', '1 000']) expect(decimalText(bad)).toBeNull();
    expect(decimalText(null)).toBeNull();
  });
  it('canonicalizes decimal text as Decimal prints it', () => {
    const cases = [
      '0',
      '-0',
      '00',
      '0.000',
      '-0.000',
      '007',
      '000.500',
      '-000.050',
      '100',
      '100.0000',
      '12.340',
      '-3.0',
      '9999999999999.99',
      '1.0000000001',
    ];
    for (const text of cases) expect(decimalText(text)).toBe(new Dec(text).toFixed());
    expect(decimalText(-0)).toBe('0');
    expect(decimalText(250)).toBe('250');
    expect(decimalText(0.5)).toBe('0.5');
    expect(decimalPlaces(new Dec('10.500'))).toBe(1);
  });
  it('adds exactly: 0.1 + 0.2 = 0.3', () => {
    expect(new Dec('0.1').plus('0.2').toFixed()).toBe('0.3');
    expect(sum(['0.1', '0.2']).eq('0.3')).toBe(true);
    expect(sum([new Dec(0), '0.1', new Dec('-0'), new Dec('0.2'), '0']).toFixed()).toBe('0.3');
    expect(sum([]).toFixed()).toBe('0');
  });
  it('keeps 10 places exactly', () => {
    expect(new Dec('1234567890.1234567891').times(3).toFixed()).toBe('3703703670.3703703673');
    expect(new Dec('10').dividedBy(3).toDecimalPlaces(10).toFixed(10)).toBe('3.3333333333');
    expect(new Dec('20').dividedBy(3).toDecimalPlaces(10).toFixed(10)).toBe('6.6666666667');
  });
  it("rounds half-up at 2 places (not banker's rounding, not float artefacts)", () => {
    expect(round2(new Dec('0.125')).toFixed(2)).toBe('0.13');
    expect(round2(new Dec('0.135')).toFixed(2)).toBe('0.14');
    expect(money('1.005')).toBe('1.01'); // (1.005).toFixed(2) === '1.00' with floats
    expect(money('2.675')).toBe('2.68'); // (2.675).toFixed(2) === '2.67' with floats
    expect(money('-0')).toBe('0.00');
    expect(percentOf('0.25', '18').toFixed(2)).toBe('0.05'); // 0.045 → 0.05
    expect(percentOf('100', '33.3333').toFixed(2)).toBe('33.33');
  });
  it('formats rates with 2 to 4 places', () => {
    expect(rate('18')).toBe('18.00');
    expect(rate('1.65')).toBe('1.65');
    expect(rate('0.123')).toBe('0.123');
    expect(rate('7.6000')).toBe('7.60');
    expect(rate('0')).toBe('0.00');
  });
  it('sums 200 items of 0.01 … 2.00 exactly', () => {
    const amounts = Array.from({ length: 200 }, (_, i) => ((i + 1) / 100).toFixed(2));
    expect(sum(amounts).toFixed(2)).toBe('201.00');
    // 200 × 0.1: exact in decimal, drifts with binary floats
    const tenths = Array.from({ length: 200 }, () => '0.1');
    expect(sum(tenths).toFixed()).toBe('20');
    expect(tenths.reduce((a, v) => a + Number(v), 0)).not.toBe(20);
  });
  it('handles the layout maximum (13 integer digits) without loss', () => {
    expect(money(new Dec('9999999999999.99').plus('0'))).toBe('9999999999999.99');
    // 9999999999999.99 × 99999999999.9999 = 999999999999998000000000.000001 exactly (31 significant digits)
    expect(new Dec('9999999999999.99').times('99999999999.9999').toFixed()).toBe('999999999999998000000000.000001');
  });
});
