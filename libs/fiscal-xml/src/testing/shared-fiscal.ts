// Test support: the fiscal reference fixtures (fixtures/fiscal at the repository root, copied from shared/fiscal).
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

// This file is libs/fiscal-xml/src/testing/: four levels below the repository root.
export const SHARED_FISCAL = fileURLToPath(new URL('../../../../fixtures/fiscal/', import.meta.url));

export const OFFICIAL_NFE_SCHEMAS = `${SHARED_FISCAL}schemas/nfe/official_PL_010b_v1.30/`;
export const NFSE_SCHEMAS = `${SHARED_FISCAL}schemas/nfse/v1.01/`;

export function readSample(relativePath: string): string {
  return readFileSync(`${SHARED_FISCAL}samples/${relativePath}`, 'utf8');
}
