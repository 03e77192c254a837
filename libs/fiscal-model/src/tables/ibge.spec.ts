import { allStates, findMunicipality, findState, findStateByCode } from './ibge.js';

describe('IBGE tables', () => {
  it('finds municipalities by 7-digit code with their state', () => {
    expect(findMunicipality('3550308')).toEqual({ code: '3550308', name: 'São Paulo', state: 'SP', stateCode: '35' });
    expect(findMunicipality(5300108)?.state).toBe('DF');
    expect(findMunicipality('9999999')).toBeUndefined();
    expect(findMunicipality('355030')).toBeUndefined();
  });
  it('has 27 states with cUF and UTC offsets (no DST since 2019)', () => {
    expect(allStates()).toHaveLength(27);
    expect(findState('SP')).toMatchObject({ code: '35', utcOffset: '-03:00', contingencyAuthorizer: 'SVC-AN' });
    expect(findState('am')).toMatchObject({ code: '13', utcOffset: '-04:00', contingencyAuthorizer: 'SVC-RS' });
    expect(findState('AC')?.utcOffset).toBe('-05:00');
    for (const uf of ['MT', 'MS', 'RO', 'RR']) expect(findState(uf)?.utcOffset).toBe('-04:00');
    expect(findState('PE')?.utcOffset).toBe('-03:00');
    expect(findState('XX')).toBeUndefined();
    expect(findStateByCode(43)?.uf).toBe('RS');
  });
  it('matches the IBGE CSV row for row', async () => {
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const csv = readFileSync(resolve(process.cwd(), 'fixtures', 'fiscal', 'tables', 'municipios_ibge.csv'), 'utf8');
    const rows = csv.trim().split(/\r?\n/).slice(1);
    expect(rows).toHaveLength(5570);
    for (const row of rows) {
      const [code, name, uf] = row.split(',');
      expect(findMunicipality(code!)).toMatchObject({ name, state: uf });
    }
  });
});
