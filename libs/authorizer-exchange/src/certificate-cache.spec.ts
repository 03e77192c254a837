import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { CertificateCache, usableCertificate } from './certificate-cache.js';

describe('CertificateCache.loadOrUnseal', () => {
  it('parses a certificate once and hands every caller the same signer', async () => {
    const pkcs12 = createTestCertificateAuthority().issueA1({ taxId: '11222333000181', legalName: 'TALAO TESTE LTDA', password: 'p' });
    const cache = new CertificateCache();
    let unseals = 0;
    const unseal = async () => {
      unseals++;
      return { pkcs12, password: 'p' };
    };
    const [a, b] = await Promise.all([cache.loadOrUnseal('c1', unseal), cache.loadOrUnseal('c1', unseal)]);
    const later = await cache.loadOrUnseal('c1', unseal);
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect(later).toBe(a);
    expect(cache.load('c1', Buffer.alloc(0), 'unused')).toBe(a);
    expect(unseals).toBe(1);
    expect(a?.certificate.certificatePem).toContain('BEGIN CERTIFICATE');
  });

  it('unseals once for concurrent misses and reports a certificate that is gone as null', async () => {
    const cache = new CertificateCache();
    let unseals = 0;
    // A PKCS#12 that cannot be parsed: every waiter sees the same failure, and a later call tries again.
    const unseal = async () => {
      unseals++;
      return { pkcs12: Buffer.from('not a pkcs12'), password: 'x' };
    };
    const results = await Promise.allSettled([
      cache.loadOrUnseal('a', unseal),
      cache.loadOrUnseal('a', unseal),
      cache.loadOrUnseal('a', unseal),
    ]);
    expect(unseals).toBe(1);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    await expect(cache.loadOrUnseal('a', unseal)).rejects.toThrow();
    expect(unseals).toBe(2);
    await expect(cache.loadOrUnseal('b', async () => null)).resolves.toBeNull();
  });
});

describe('usableCertificate', () => {
  it('a stored certificate that no longer loads is unusable (null); any other failure is the caller’s to retry', async () => {
    const pkcs12 = createTestCertificateAuthority().issueA1({ taxId: '11222333000181', legalName: 'TALAO TESTE LTDA', password: 'p' });
    const cache = new CertificateCache();
    await expect(usableCertificate(() => cache.loadOrUnseal('w', async () => ({ pkcs12, password: 'wrong' })))).resolves.toBeNull();
    const loaded = await usableCertificate(() => cache.loadOrUnseal('ok', async () => ({ pkcs12, password: 'p' })));
    expect(loaded?.certificate.taxId).toBe('11222333000181');
    await expect(usableCertificate(() => Promise.reject(new Error('vault key not configured')))).rejects.toThrow(
      'vault key not configured',
    );
  });
});
