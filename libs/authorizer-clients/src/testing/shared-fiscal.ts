// Test support: the fiscal reference fixtures (fixtures/fiscal at the repository root, copied from shared/fiscal).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// This file is libs/authorizer-clients/src/testing/: four levels below the repository root.
export const SHARED_FISCAL = fileURLToPath(new URL('../../../../fixtures/fiscal/', import.meta.url));

export function readFiscalSample(relativePath: string): string {
  return readFileSync(`${SHARED_FISCAL}samples/${relativePath}`, 'utf8');
}
