import { presentedToken } from './queue-dashboard.js';

const basic = (userPassword: string) => `Basic ${Buffer.from(userPassword).toString('base64')}`;

describe('the queue dashboard credential', () => {
  it('is the Bearer token, or the password of HTTP Basic (a browser)', () => {
    expect(presentedToken('Bearer abc123')).toBe('abc123');
    expect(presentedToken(basic('operator:s3cr:et'))).toBe('s3cr:et');
    expect(presentedToken(basic(':only-password'))).toBe('only-password');
  });

  it('is nothing for no header, another scheme, or Basic without a password', () => {
    expect(presentedToken(undefined)).toBeUndefined();
    expect(presentedToken('Digest abc')).toBeUndefined();
    expect(presentedToken(basic('operator'))).toBeUndefined();
    expect(presentedToken(basic('operator:'))).toBeUndefined();
  });
});
