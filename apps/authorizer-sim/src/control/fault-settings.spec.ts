import { FaultBook } from './fault-settings.js';

describe('FaultBook.dropsByRate', () => {
  it('drops an answer when the draw falls under the authorizer’s rate, falling back to *', () => {
    const faults = new FaultBook();
    expect(faults.dropsByRate('SP', () => 0)).toBe(false);
    faults.set('*', { dropRate: 0.1 });
    expect(faults.dropsByRate('SP', () => 0.05)).toBe(true);
    expect(faults.dropsByRate('SP', () => 0.1)).toBe(false);
    faults.set('SP', { dropRate: 0 });
    expect(faults.dropsByRate('SP', () => 0)).toBe(false);
    expect(faults.dropsByRate('SEFIN', () => 0.09)).toBe(true);
  });

  it('keeps dropping at the rate (not a count used up)', () => {
    const faults = new FaultBook();
    faults.set('*', { dropRate: 0.5 });
    let draw = 0;
    const draws = () => [0.2, 0.7][draw++ % 2]!;
    const dropped = Array.from({ length: 100 }, () => faults.dropsByRate('SVRS', draws)).filter(Boolean).length;
    expect(dropped).toBe(50);
    expect(faults.dropped).toBe(50);
  });
});
