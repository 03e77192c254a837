import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { accessKeyCheckDigit, buildAccessKey, isAccessKeyValid, parseAccessKey } from './access-key.js';
import { deriveNumericCode } from './numeric-code.js';

const samplesDir = resolve(process.cwd(), 'fixtures', 'fiscal', 'samples', 'nfe');

/**
 * Keys of documents an authorizer actually accepted: the nfeProc files, the distribution documents and the signed
 * events. The hand-written sped-nfe request fixtures (CC-e request, manifestation request, some SOAP fixtures)
 * carry made-up keys with wrong check digits; they are checked to fail below.
 */
function realKeys(): string[] {
  const keys = new Set<string>();
  const files = [
    ...readdirSync(samplesDir).filter(
      (f) => /^(nfeProc|procEvento).*\.xml$/.test(f) || f === 'envEvento_cancelamento_110111_SIGNATURE_VALID.xml',
    ),
    ...readdirSync(resolve(samplesDir, 'dist'))
      .filter((f) => f.endsWith('.xml'))
      .map((f) => `dist/${f}`),
  ];
  for (const file of files) {
    const xml = readFileSync(resolve(samplesDir, file), 'utf8');
    for (const m of xml.matchAll(/Id="NFe(\d{44})"|<chNFe>(\d{44})<\/chNFe>/g)) keys.add((m[1] ?? m[2])!);
  }
  return [...keys];
}

describe('access key', () => {
  it('validates the check digit of every real key in the samples', () => {
    const keys = realKeys();
    expect(keys.length).toBeGreaterThanOrEqual(10);
    for (const key of keys) {
      expect({ key, valid: isAccessKeyValid(key) }).toEqual({ key, valid: true });
      expect(accessKeyCheckDigit(key.slice(0, 43))).toBe(Number(key[43]));
    }
  });

  it('detects the made-up keys of the hand-written fixtures', () => {
    // envEvento_cce_110110.xml, envEvento_manifestacao_SIGNATURE_VALID.xml, RecepcaoEvento_cce_response.xml
    for (const key of [
      '35220605730928000145550010000048661583302923',
      '35240305730928000145650010000001421071400478',
      '35170449607777000156550010000022511003873504',
    ]) {
      expect(isAccessKeyValid(key)).toBe(false);
    }
  });

  it('rebuilds a real key from its parts', () => {
    const key = '35180834128745000152550010000474281920007498';
    const parts = parseAccessKey(key)!;
    expect(parts).toMatchObject({
      cUF: '35',
      yearMonth: '1808',
      cnpjOrCpf: '34128745000152',
      series: 1,
      number: 47428,
      emissionType: 1,
      numericCode: '92000749',
      checkDigit: 8,
    });
    expect(buildAccessKey(parts)).toBe(key);
  });

  it('computes remainder 0/1 as check digit 0', () => {
    let zeroFound = false;
    for (let n = 1; n < 50 && !zeroFound; n++) {
      const key = buildAccessKey({
        cUF: 35,
        yearMonth: '2601',
        cnpjOrCpf: '11222333000181',
        model: 55,
        series: 1,
        number: n,
        emissionType: 1,
        numericCode: '10293847',
      });
      if (key.endsWith('0')) zeroFound = true;
      expect(isAccessKeyValid(key)).toBe(true);
    }
    expect(zeroFound).toBe(true);
  });

  it('handles alphanumeric CNPJ with ASCII − 48 values', () => {
    const key = buildAccessKey({
      cUF: '35',
      yearMonth: '2607',
      cnpjOrCpf: '12ABC34501DE35',
      model: 55,
      series: 1,
      number: 123,
      emissionType: 1,
      numericCode: '12345670',
    });
    expect(key).toHaveLength(44);
    expect(key.slice(6, 20)).toBe('12ABC34501DE35');
    // hand computation: sum of (ascii-48) × weights 2..9 from the right
    let sum = 0;
    let w = 2;
    for (let i = 42; i >= 0; i--) {
      sum += (key.charCodeAt(i) - 48) * w;
      w = w === 9 ? 2 : w + 1;
    }
    const expected = sum % 11 < 2 ? 0 : 11 - (sum % 11);
    expect(Number(key[43])).toBe(expected);
    expect(isAccessKeyValid(key)).toBe(true);
  });

  it('weighs letters as ASCII − 48 (A = 17, B = 18)', () => {
    // 'A' at the last position weighs 2: 17 × 2 = 34, 34 % 11 = 1 → digit 0
    expect(accessKeyCheckDigit('A'.padStart(43, '0'))).toBe(0);
    // 'B' = 18: 36 % 11 = 3 → 8
    expect(accessKeyCheckDigit('B'.padStart(43, '0'))).toBe(8);
  });

  it('pads a CPF issuer to 14 and refuses malformed parts', () => {
    const key = buildAccessKey({
      cUF: 35,
      yearMonth: '2601',
      cnpjOrCpf: '12345678909',
      model: 55,
      series: 0,
      number: 1,
      emissionType: 1,
      numericCode: '00000001',
    });
    expect(key.slice(6, 20)).toBe('00012345678909');
    const base = {
      cUF: 35,
      yearMonth: '2601',
      cnpjOrCpf: '11222333000181',
      model: 55,
      series: 1,
      number: 1,
      emissionType: 1,
      numericCode: '00000001',
    };
    expect(() => buildAccessKey({ ...base, yearMonth: '2613' })).toThrow(RangeError);
    expect(() => buildAccessKey({ ...base, series: 1000 })).toThrow(RangeError);
    expect(() => buildAccessKey({ ...base, number: 0 })).toThrow(RangeError);
    expect(() => buildAccessKey({ ...base, numericCode: '1234567' })).toThrow(RangeError);
    expect(() => buildAccessKey({ ...base, cnpjOrCpf: '11222333000A8X' })).toThrow(RangeError);
  });

  it('refuses keys with a wrong digit, length or lowercase letters', () => {
    expect(isAccessKeyValid('35180834128745000152550010000474281920007497')).toBe(false);
    expect(isAccessKeyValid('3518083412874500015255001000047428192000749')).toBe(false);
    expect(isAccessKeyValid('351704496077777000156550010000022511003873504')).toBe(false);
    expect(parseAccessKey('35260712abc34501de3555001000000123112345670')).toBeNull();
  });

  it('every built key validates, and changing any character breaks it (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9A-Z]{12}\d{2}$/),
        fc.integer({ min: 1, max: 999_999_999 }),
        fc.integer({ min: 0, max: 999 }),
        fc.stringMatching(/^\d{8}$/),
        fc.integer({ min: 0, max: 42 }),
        (cnpj, number, series, numericCode, position) => {
          const key = buildAccessKey({
            cUF: 43,
            yearMonth: '2612',
            cnpjOrCpf: cnpj,
            model: 55,
            series,
            number,
            emissionType: 1,
            numericCode,
          });
          expect(isAccessKeyValid(key)).toBe(true);
          if (position >= 6 && position < 20) return; // letters allowed there: a substitution may collide
          // remainders 0 and 1 both give digit 0, so a change between them is invisible: the layout's rule, not a bug
          if (key[43] === '0') return;
          const c = key[position]!;
          const changed = key.slice(0, position) + String((Number(c) + 1) % 10) + key.slice(position + 1);
          // otherwise a single-digit change is detected: delta × weight is never a multiple of 11
          expect(isAccessKeyValid(changed)).toBe(false);
        },
      ),
    );
  });
});

describe('deriveNumericCode', () => {
  it('is deterministic per invoice id and 8 digits', () => {
    const a = deriveNumericCode('0b7c1f1e-6f1e-4a8f-9b1e-3c2d1e0f9a8b', 42);
    expect(a).toMatch(/^\d{8}$/);
    expect(deriveNumericCode('0b7c1f1e-6f1e-4a8f-9b1e-3c2d1e0f9a8b', 42)).toBe(a);
    expect(deriveNumericCode('another-invoice', 42)).not.toBe(a);
  });
  it('never equals the document number', () => {
    const id = 'invoice-x';
    const first = deriveNumericCode(id, 1);
    const collided = deriveNumericCode(id, Number(first));
    expect(collided).not.toBe(first);
    expect(Number(collided)).not.toBe(Number(first));
    expect(deriveNumericCode(id, Number(first))).toBe(collided);
  });
  it('property: 8 digits, not the number, not a forbidden sequence', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.integer({ min: 1, max: 999_999_999 }), (id, n) => {
        const code = deriveNumericCode(id, n);
        expect(code).toMatch(/^\d{8}$/);
        expect(Number(code)).not.toBe(n);
        expect(['00000000', '12345678', '11111111']).not.toContain(code);
      }),
    );
  });
  it('refuses an empty invoice id', () => {
    expect(() => deriveNumericCode('', 1)).toThrow(RangeError);
  });
});
