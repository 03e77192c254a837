import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSecrets, validateSecrets } from './secrets.mjs';

describe('loadSecrets', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'talao-secrets-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('generates valid secrets once, stores them privately and returns the same ones on the next start', async () => {
    const first = await loadSecrets({ dataDir, env: {} });
    expect(first.origin).toEqual({
      adminToken: 'generated',
      certificateEncryptionKey: 'generated',
      embeddedPostgresPassword: 'generated',
      simulatorControlToken: 'generated',
    });
    expect(validateSecrets(first)).toEqual([]);
    expect(Buffer.from(first.certificateEncryptionKey, 'base64')).toHaveLength(32);
    const file = path.join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await loadSecrets({ dataDir, env: {} });
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.certificateEncryptionKey).toBe(first.certificateEncryptionKey);
    expect(second.origin.adminToken).toBe('stored');
  });

  it('prefers the environment and never writes those values down', async () => {
    const env = { ADMIN_TOKEN: 'a'.repeat(40), CERTIFICATE_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64') };
    const secrets = await loadSecrets({ dataDir, env });
    expect(secrets.adminToken).toBe(env.ADMIN_TOKEN);
    expect(secrets.origin.certificateEncryptionKey).toBe('environment');
    const stored = readFileSync(path.join(dataDir, 'secrets.json'), 'utf8');
    expect(stored).not.toContain(env.ADMIN_TOKEN);
    expect(stored).not.toContain(env.CERTIFICATE_ENCRYPTION_KEY);
  });

  it('refuses values the gateway would refuse, naming where they came from', async () => {
    await expect(loadSecrets({ dataDir, env: { ADMIN_TOKEN: 'short' } })).rejects.toThrow(
      /ADMIN_TOKEN must be at least 32 characters.*the environment/,
    );
    await expect(loadSecrets({ dataDir, env: { CERTIFICATE_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') } })).rejects.toThrow(
      /exactly 32 bytes/,
    );
  });

  it('does not replace a damaged secrets file (its key may be the only one that reads stored certificates)', async () => {
    writeFileSync(path.join(dataDir, 'secrets.json'), '{ not json');
    await expect(loadSecrets({ dataDir, env: {} })).rejects.toThrow(/not a JSON object/);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toBe('{ not json');
  });
});
