import type { IssuingCompany } from '@talao/issuance/create';
import { cachedIssuerSnapshots, TtlCache } from './issuer-snapshot-cache.js';

describe('TtlCache', () => {
  it('reuses a found value within the TTL, reads again after it, never keeps an absent one', async () => {
    let clock = 0;
    const cache = new TtlCache<string>(2_000, () => clock);
    let reads = 0;
    const load = async () => (reads++, reads === 1 ? null : 'v');
    expect(await cache.get('k', load)).toBeNull();
    expect(await cache.get('k', load)).toBe('v');
    expect(await cache.get('k', load)).toBe('v');
    expect(reads).toBe(2);
    clock = 2_001;
    await cache.get('k', load);
    expect(reads).toBe(3);
  });

  it('does not keep an answer whose read overlapped a clear()', async () => {
    const cache = new TtlCache<string>(60_000);
    let release: (value: string) => void = () => undefined;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    cache.clear();
    release('old');
    expect(await slow).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });
});

describe('cachedIssuerSnapshots', () => {
  it('keeps only the certificate metadata, and forgets everything on forgetAll', async () => {
    let companyReads = 0;
    const company = { id: 'c1' } as IssuingCompany;
    const metadata = { subjectTaxId: '1', notBefore: new Date(0), notAfter: new Date(1) };
    const snapshots = cachedIssuerSnapshots(
      { findById: async () => (companyReads++, company) },
      { findActive: async () => ({ metadata, pkcs12: Buffer.from('secret'), password: 'p' }) as never },
      60_000,
    );
    await snapshots.companies.findById('c1');
    await snapshots.companies.findById('c1');
    expect(companyReads).toBe(1);
    expect(await snapshots.certificates.findActive('c1')).toEqual({ metadata });
    snapshots.forgetAll();
    await snapshots.companies.findById('c1');
    expect(companyReads).toBe(2);
  });
});
