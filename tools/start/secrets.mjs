// Secrets for a local run: taken from the environment when set, else generated once and kept in .data/secrets.json
// (mode 0600). Keeping them matters: certificates already stored are encrypted with CERTIFICATE_ENCRYPTION_KEY, and a
// new key on every start would make them unreadable. Values that came from the environment are never written down.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';

const GENERATED = {
  // 48 random bytes → 64 URL-safe characters; the gateway wants at least 32.
  adminToken: () => randomBytes(48).toString('base64url'),
  // AES-256 key: base64 of exactly 32 bytes.
  certificateEncryptionKey: () => randomBytes(32).toString('base64'),
  // Password of the embedded PostgreSQL superuser (used only when the launcher starts that server).
  embeddedPostgresPassword: () => randomBytes(24).toString('base64url'),
  // Bearer token of the authorizer simulator's control API.
  simulatorControlToken: () => randomBytes(24).toString('hex'),
};

const FROM_ENV = {
  adminToken: 'ADMIN_TOKEN',
  certificateEncryptionKey: 'CERTIFICATE_ENCRYPTION_KEY',
};

/** Checks what the gateway will check at boot, so a bad value is reported by the launcher with its origin. */
export function validateSecrets({ adminToken, certificateEncryptionKey }) {
  const problems = [];
  if (adminToken.length < 32) problems.push('ADMIN_TOKEN must be at least 32 characters');
  const key = Buffer.from(certificateEncryptionKey, 'base64');
  if (key.length !== 32 || key.toString('base64') !== certificateEncryptionKey) {
    problems.push('CERTIFICATE_ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes');
  }
  return problems;
}

/**
 * @param {{ dataDir: string, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ adminToken: string, certificateEncryptionKey: string, embeddedPostgresPassword: string, simulatorControlToken: string,
 *   origin: Record<string, 'environment' | 'generated' | 'stored'> }>}
 */
export async function loadSecrets({ dataDir, env = process.env }) {
  const file = path.join(dataDir, 'secrets.json');
  const stored = await readStored(file);
  const origin = {};
  const result = {};
  let changed = false;
  for (const [name, generate] of Object.entries(GENERATED)) {
    const envName = FROM_ENV[name];
    if (envName && env[envName]) {
      result[name] = env[envName];
      origin[name] = 'environment';
    } else if (typeof stored[name] === 'string' && stored[name].length > 0) {
      result[name] = stored[name];
      origin[name] = 'stored';
    } else {
      result[name] = generate();
      stored[name] = result[name];
      origin[name] = 'generated';
      changed = true;
    }
  }
  const problems = validateSecrets(/** @type {any} */ (result));
  if (problems.length > 0) {
    const where = (name) => (origin[name] === 'environment' ? 'the environment' : file);
    throw new Error(`${problems.join('; ')} (admin token from ${where('adminToken')}, key from ${where('certificateEncryptionKey')})`);
  }
  if (changed) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    await chmod(file, 0o600);
  }
  return { ...result, origin };
}

async function readStored(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // fall through to the error below
  }
  // Never silently replace a damaged secrets file: the key inside may be the only way to read stored certificates.
  throw new Error(`${file} is not a JSON object; fix or delete it (deleting makes stored certificates unreadable)`);
}
