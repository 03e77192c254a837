import { canonicalJson, requestFingerprint } from './request-fingerprint.js';

describe('request fingerprint', () => {
  it('ignores key order and formatting at every level', () => {
    const a = { b: 1, a: { y: ['2', { q: 1, p: null }], x: true } };
    const b = JSON.parse('{ "a": { "x": true, "y": ["2", { "p": null, "q": 1 }] }, "b": 1 }') as unknown;
    expect(canonicalJson(a)).toBe('{"a":{"x":true,"y":["2",{"p":null,"q":1}]},"b":1}');
    expect(requestFingerprint('create_invoice', a)).toBe(requestFingerprint('create_invoice', b));
  });

  it('differs for another value, another array order or another operation', () => {
    const body = { items: [{ unit_price: '49.90' }, { unit_price: '1.00' }] };
    const base = requestFingerprint('create_invoice', body);
    expect(requestFingerprint('create_invoice', { items: [{ unit_price: '49.9' }, { unit_price: '1.00' }] })).not.toBe(base);
    expect(requestFingerprint('create_invoice', { items: [...body.items].reverse() })).not.toBe(base);
    expect(requestFingerprint('reissue_invoice:x', body)).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});
