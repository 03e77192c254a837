import type { ApiKeyLookup, ResolvedApiKey } from './api-key-authentication.js';
import { cachedApiKeyLookup } from './cached-api-key-lookup.js';

const key = (revoked = false): ResolvedApiKey => ({
  id: 'k1',
  name: 'n',
  prefix: 'p',
  environment: 'homologation',
  context: 'api',
  revokedAt: revoked ? new Date() : null,
  company: { id: 'c1', taxId: '1', legalName: 'L', tradeName: null },
});

function counting(answer: () => ResolvedApiKey | null) {
  const calls: string[] = [];
  const inner: ApiKeyLookup = { isWellFormed: () => true, resolve: async (token) => (calls.push(token), answer()) };
  return { inner, calls };
}

describe('cachedApiKeyLookup', () => {
  it('reads an accepted key once within the TTL and again after it', async () => {
    let clock = 0;
    const { inner, calls } = counting(() => key());
    const lookup = cachedApiKeyLookup(inner, 5_000, () => clock);
    await lookup.resolve('t');
    await lookup.resolve('t');
    expect(calls).toHaveLength(1);
    clock = 5_001;
    await lookup.resolve('t');
    expect(calls).toHaveLength(2);
  });

  it('never caches a refused key, and shares one read between concurrent callers', async () => {
    let answer: ResolvedApiKey | null = null;
    const { inner, calls } = counting(() => answer);
    const lookup = cachedApiKeyLookup(inner, 5_000);
    expect(await lookup.resolve('t')).toBeNull();
    answer = key();
    expect(await lookup.resolve('t')).not.toBeNull();
    expect(calls).toHaveLength(2);
    await Promise.all([lookup.resolve('u'), lookup.resolve('u')]);
    expect(calls).toHaveLength(3);
  });

  it('forgets everything at once on forgetAll (revocation through this process)', async () => {
    let answer: ResolvedApiKey | null = key();
    const { inner } = counting(() => answer);
    const lookup = cachedApiKeyLookup(inner, 60_000);
    expect(await lookup.resolve('t')).not.toBeNull();
    answer = null;
    expect(await lookup.resolve('t')).not.toBeNull();
    lookup.forgetAll();
    expect(await lookup.resolve('t')).toBeNull();
  });

  it('keys the cache by the whole token: another secret is read again', async () => {
    const { inner, calls } = counting(() => key());
    const lookup = cachedApiKeyLookup(inner, 60_000);
    await lookup.resolve('secret-a');
    await lookup.resolve('secret-b');
    expect(calls).toEqual(['secret-a', 'secret-b']);
  });
});
