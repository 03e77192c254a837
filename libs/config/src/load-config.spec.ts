import { ConfigError, describeConfig, loadAdminCliConfig, loadGatewayConfig } from './load-config.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const valid = {
  DATABASE_URL: 'postgresql://postgres:s3cret@127.0.0.1:5432/talao',
  ADMIN_TOKEN: 'x'.repeat(32),
  CERTIFICATE_ENCRYPTION_KEY: KEY,
};

function problemsOf(env: Record<string, string | undefined>): readonly string[] {
  try {
    loadGatewayConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadGatewayConfig', () => {
  it('applies defaults', () => {
    const config = loadGatewayConfig(valid);
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.redisPrefix).toBe('talao:');
    expect(config.bodyLimitBytes).toBe(1024 * 1024);
    expect(config.logLevel).toBe('info');
    expect(config.deprecations).toEqual({});
    expect(config.trustedProxies).toEqual([]);
  });

  it('trusts only the proxies TRUSTED_PROXIES lists, and refuses what is not an address', () => {
    expect(loadGatewayConfig({ ...valid, TRUSTED_PROXIES: ' 10.0.0.1, 192.168.0.0/16,loopback,::1 ' }).trustedProxies).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
      '::1',
    ]);
    expect(problemsOf({ ...valid, TRUSTED_PROXIES: '10.0.0.1,evil.example' })).toEqual([
      expect.stringMatching(/^TRUSTED_PROXIES must list IP addresses/),
    ]);
    expect(problemsOf({ ...valid, TRUSTED_PROXIES: '10.0.0.0/33' })).toHaveLength(1);
  });

  it('names every bad variable at once, without echoing values', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      ADMIN_TOKEN: 'short-secret',
      CERTIFICATE_ENCRYPTION_KEY: 'abc',
    });
    expect(problems.map((p) => p.split(' ')[0]).sort()).toEqual(['ADMIN_TOKEN', 'CERTIFICATE_ENCRYPTION_KEY', 'DATABASE_URL', 'PORT']);
    expect(problems.join('\n')).not.toContain('short-secret');
  });

  it('requires ADMIN_TOKEN', () => {
    expect(problemsOf({ ...valid, ADMIN_TOKEN: undefined })).toEqual([expect.stringMatching(/^ADMIN_TOKEN is required/)]);
  });

  it('refuses a key that is not 32 bytes', () => {
    const problems = problemsOf({ ...valid, CERTIFICATE_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') });
    expect(problems).toEqual([expect.stringMatching(/^CERTIFICATE_ENCRYPTION_KEY must be the base64 encoding of exactly 32/)]);
  });

  it('collects rate-limit overrides and refuses bad ones', () => {
    expect(loadGatewayConfig({ ...valid, RATE_LIMIT_CREATE_INVOICE: '5' }).rateLimitOverrides).toEqual({ create_invoice: 5 });
    expect(problemsOf({ ...valid, RATE_LIMIT_ME: '0' })).toEqual(['RATE_LIMIT_ME must be a positive integer (requests per minute)']);
  });

  it('reads deprecation settings for v1', () => {
    const config = loadGatewayConfig({
      ...valid,
      API_V1_DEPRECATED_AT: '2027-01-01T00:00:00Z',
      API_V1_SUNSET_AT: 'Fri, 31 Dec 2027 23:59:59 GMT',
      API_V1_DEPRECATION_LINK: 'https://docs.example.com/migrate-v2',
    });
    expect(config.deprecations.v1?.deprecatedAt?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(config.deprecations.v1?.sunsetAt?.toISOString()).toBe('2027-12-31T23:59:59.000Z');
    expect(problemsOf({ ...valid, API_V1_SUNSET_AT: 'soon' })).toEqual([expect.stringMatching(/^API_V1_SUNSET_AT must be a date/)]);
  });

  it('treats empty variables as unset', () => {
    expect(loadGatewayConfig({ ...valid, PORT: '', LOG_LEVEL: ' ' }).port).toBe(3000);
  });

  it('describes itself without secrets', () => {
    const text = JSON.stringify(describeConfig(loadGatewayConfig(valid)));
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain(valid.ADMIN_TOKEN);
    expect(text).not.toContain(KEY);
  });
});

describe('loadAdminCliConfig', () => {
  it('needs only the database and the certificate key', () => {
    expect(loadAdminCliConfig({ DATABASE_URL: valid.DATABASE_URL, CERTIFICATE_ENCRYPTION_KEY: KEY }).databaseUrl).toBe(valid.DATABASE_URL);
  });
});
