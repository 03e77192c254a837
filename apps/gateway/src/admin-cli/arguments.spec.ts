import { companyBodyFromFlags, parseArguments, UsageError } from './arguments.js';

describe('admin CLI arguments', () => {
  it('parses a command, flags in both spellings and positionals', () => {
    expect(parseArguments(['revoke-api-key', 'abc', '--reason=x'])).toEqual({
      command: 'revoke-api-key',
      flags: { reason: 'x' },
      positionals: ['abc'],
    });
    expect(parseArguments(['set-certificate', '--file', 'a.pfx', '--password', '-dash-start'])).toMatchObject({
      flags: { file: 'a.pfx', password: '-dash-start' },
    });
  });

  it('refuses what it cannot read', () => {
    expect(() => parseArguments([])).toThrow(UsageError);
    expect(() => parseArguments(['x', '--name'])).toThrow('--name needs a value');
    expect(() => parseArguments(['x', '--a', '1', '--a', '2'])).toThrow('--a given twice');
  });

  it('builds the company body from flags over a JSON base', () => {
    const body = companyBodyFromFlags(
      { legal_name: 'Base', address: { state: 'RJ' } },
      { 'tax-id': '12ABC34501DE35', 'city-code': '3550308', state: 'SP', 'production-quota': 'unlimited', 'nfe-series': '3', json: '{}' },
    );
    expect(body).toEqual({
      legal_name: 'Base',
      tax_id: '12ABC34501DE35',
      address: { state: 'SP', city_code: '3550308' },
      plan: { production_quota: null, overage_price: null },
      default_series: { nfe: 3 },
    });
    expect(() => companyBodyFromFlags({}, { colour: 'red' })).toThrow('create-company does not know --colour');
    expect(() => companyBodyFromFlags({}, { 'nfe-series': 'two' })).toThrow(UsageError);
  });
});
