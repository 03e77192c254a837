// Test support: the shared fiscal reference data (../shared/fiscal relative to the repository root).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// This file is libs/authorizer-clients/src/testing/: four levels below the repository root.
export const SHARED_FISCAL = fileURLToPath(new URL('../../../../../shared/fiscal/', import.meta.url));

export function readFiscalSample(relativePath: string): string {
  return readFileSync(`${SHARED_FISCAL}samples/${relativePath}`, 'utf8');
}
