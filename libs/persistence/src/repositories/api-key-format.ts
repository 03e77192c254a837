// API key strings: talao_<hml|prd>_<16 hex lookup id>_<43-char base64url secret from 32 random bytes>.
// The lookup part (the "prefix") finds the row; the whole key is hashed, so the secret itself is never stored.
import { createHash, randomBytes } from 'node:crypto';
import type { Environment } from '../generated/prisma/client.js';

const ENVIRONMENT_CODES = { homologation: 'hml', production: 'prd' } as const satisfies Record<Environment, string>;
const KEY_PATTERN = /^talao_(hml|prd)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const KEY_LENGTH = 'talao_hml_'.length + 16 + 1 + 43;

export interface ParsedApiKey {
  environment: Environment;
  /** talao_<env>_<lookup id>: stored in clear, unique. */
  prefix: string;
  lookupId: string;
}

/** Null when the string cannot be a Talão key at all (the gateway answers "malformed" rather than "unknown"). */
export function parseApiKey(key: string): ParsedApiKey | null {
  if (typeof key !== 'string' || key.length !== KEY_LENGTH) return null;
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, code, lookupId] = match as unknown as [string, 'hml' | 'prd', string];
  const environment: Environment = code === 'hml' ? 'homologation' : 'production';
  return { environment, prefix: `talao_${code}_${lookupId}`, lookupId };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateApiKey(environment: Environment): { key: string; prefix: string; secretHash: string } {
  const prefix = `talao_${ENVIRONMENT_CODES[environment]}_${randomBytes(8).toString('hex')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, secretHash: hashApiKey(key) };
}
