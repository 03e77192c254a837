import { secretRefusal } from './secret.js';

describe('signing secret rules', () => {
  it('accepts 16 to 256 printable characters', () => {
    expect(secretRefusal('<SIGNING_SECRET>')).toBeUndefined();
    expect(secretRefusal('x'.repeat(256))).toBeUndefined();
  });

  it('refuses short, over-long, non-printable and non-string secrets', () => {
    expect(secretRefusal('x'.repeat(15))).toBe('secret must be 16 to 256 characters');
    expect(secretRefusal('x'.repeat(257))).toBe('secret must be 16 to 256 characters');
    expect(secretRefusal('x'.repeat(10_000_000))).toBe('secret must be 16 to 256 characters');
    expect(secretRefusal('with a space in it!')).toBe('secret must be printable ASCII without spaces');
    expect(secretRefusal('sécret-sécret-sécret')).toBe('secret must be printable ASCII without spaces');
    expect(secretRefusal(undefined)).toBe('secret must be a string');
  });
});
