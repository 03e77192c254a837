import { randomBytes } from 'node:crypto';
import { signingKeyIdFor } from './signing-keys.js';

describe('signingKeyIdFor', () => {
  it('gives instances configured with the same encryption key the same kid, whatever the surrounding blanks', () => {
    const key = randomBytes(32).toString('base64');
    expect(signingKeyIdFor(key)).toBe(signingKeyIdFor(`${key}\n`));
    expect(signingKeyIdFor(key)).toMatch(/^talao-oauth-[A-Za-z0-9_-]{16}$/);
  });

  it('gives another encryption key (a rotation, another platform on the database) a signing key of its own', () => {
    expect(signingKeyIdFor(randomBytes(32).toString('base64'))).not.toBe(signingKeyIdFor(randomBytes(32).toString('base64')));
  });

  it('does not reveal the encryption key', () => {
    const key = randomBytes(32);
    expect(signingKeyIdFor(key.toString('base64'))).not.toContain(key.toString('base64url').slice(0, 8));
  });
});
