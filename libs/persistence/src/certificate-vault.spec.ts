import { randomBytes } from 'node:crypto';
import { CertificateVault } from './certificate-vault.js';

const key = () => randomBytes(32).toString('base64');

describe('CertificateVault', () => {
  const plain = Buffer.from('PKCS#12 bytes \u0000\u00ff and a password: s3nh@');

  it('round-trips, with a fresh IV every time', () => {
    const vault = new CertificateVault(key());
    const a = vault.encrypt(plain);
    const b = vault.encrypt(plain);
    expect(vault.decrypt(a)).toEqual(plain);
    expect(vault.decrypt(b)).toEqual(plain);
    expect(a.equals(b)).toBe(false);
    expect(a.includes(plain)).toBe(false);
    expect(a[0]).toBe(1); // version byte
    expect(a.length).toBe(1 + 12 + 16 + plain.length);
  });

  it('refuses data sealed with another key', () => {
    const sealed = new CertificateVault(key()).encrypt(plain);
    expect(() => new CertificateVault(key()).decrypt(sealed)).toThrow(/wrong key or tampered/);
  });

  it.each([
    ['the version byte', 0],
    ['the IV', 5],
    ['the auth tag', 20],
    ['the ciphertext', 40],
  ])('refuses data with a modified byte in %s', (_part, index) => {
    const vault = new CertificateVault(key(), { keyVersion: 1, previousKeys: { 2: key() } });
    const sealed = vault.encrypt(plain);
    sealed[index] = sealed[index]! ^ 0x01;
    expect(() => vault.decrypt(sealed)).toThrow();
  });

  it('refuses truncated data and unknown key versions', () => {
    const vault = new CertificateVault(key());
    expect(() => vault.decrypt(Buffer.alloc(10))).toThrow(/truncated/);
    const sealed = new CertificateVault(key(), { keyVersion: 7 }).encrypt(plain);
    expect(() => vault.decrypt(sealed)).toThrow(/key version 7/);
  });

  it('reads values sealed before a key rotation', () => {
    const oldKey = key();
    const sealedBefore = new CertificateVault(oldKey).encrypt(plain);
    const rotated = new CertificateVault(key(), { keyVersion: 2, previousKeys: { 1: oldKey } });
    expect(rotated.decrypt(sealedBefore)).toEqual(plain);
    expect(rotated.encrypt(plain)[0]).toBe(2);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new CertificateVault(randomBytes(16).toString('base64'))).toThrow(/32 random bytes/);
    expect(() => new CertificateVault('')).toThrow(/32 random bytes/);
  });
});
