import { generateApiKey, hashApiKey, parseApiKey } from './api-key-format.js';

describe('API key format', () => {
  it('generates talao_<env>_<16 hex>_<43 base64url> keys whose prefix and hash match', () => {
    for (const environment of ['homologation', 'production'] as const) {
      const { key, prefix, secretHash } = generateApiKey(environment);
      expect(key).toMatch(/^talao_(hml|prd)_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
      expect(key.startsWith(`${prefix}_`)).toBe(true);
      expect(prefix.slice(6, 9)).toBe(environment === 'homologation' ? 'hml' : 'prd');
      expect(secretHash).toBe(hashApiKey(key));
      expect(secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(parseApiKey(key)).toEqual({ environment, prefix, lookupId: prefix.slice(10) });
    }
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('production').key));
    expect(keys.size).toBe(200);
  });

  it.each([
    '',
    'Bearer talao_hml_0123456789abcdef_' + 'a'.repeat(43),
    'talao_dev_0123456789abcdef_' + 'a'.repeat(43),
    'talao_hml_0123456789ABCDEF_' + 'a'.repeat(43),
    'talao_hml_0123456789abcde_' + 'a'.repeat(44),
    'talao_hml_0123456789abcdef_' + 'a'.repeat(42),
    'talao_hml_0123456789abcdef_' + 'a'.repeat(42) + '=',
    'talao_hml_0123456789abcdef_' + 'a'.repeat(42) + '+',
    'x'.repeat(10_000),
  ])('refuses the malformed key %#', (key) => {
    expect(parseApiKey(key)).toBeNull();
  });
});
