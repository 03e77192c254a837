import { matchesEtag } from './pdf-response.js';

describe('matchesEtag', () => {
  const etag = '"3f2a"';

  it('matches the tag itself, weak or strong, in a list, or *', () => {
    expect(matchesEtag('"3f2a"', etag)).toBe(true);
    expect(matchesEtag('W/"3f2a"', etag)).toBe(true);
    expect(matchesEtag('"aaaa", "3f2a"', etag)).toBe(true);
    expect(matchesEtag('*', etag)).toBe(true);
  });

  it('does not match another tag, an unquoted one, or nothing', () => {
    expect(matchesEtag('"3f2b"', etag)).toBe(false);
    expect(matchesEtag('3f2a', etag)).toBe(false);
    expect(matchesEtag(undefined, etag)).toBe(false);
    expect(matchesEtag('', etag)).toBe(false);
  });
});
