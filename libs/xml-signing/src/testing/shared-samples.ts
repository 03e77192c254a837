// Test support: the fiscal reference fixtures (fixtures/fiscal at the repository root, copied from shared/fiscal).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// This file is libs/xml-signing/src/testing/: the repository root is four levels up.
const SAMPLES = fileURLToPath(new URL('../../../../fixtures/fiscal/samples/', import.meta.url));

export function readSample(relativePath: string): string {
  return readFileSync(`${SAMPLES}${relativePath}`, 'utf8');
}

/** A pretty-printed sample made canonical by construction: no BOM, no declaration, no whitespace between tags. */
export function compactSample(xml: string): string {
  return xml
    .replace(/^\uFEFF/, '')
    .replace(/<\?xml[^>]*\?>/, '')
    .replace(/>\s+</g, '><')
    .trim();
}

/** Removes every ds:Signature element (the samples have no nested Signature). */
export function withoutSignatures(xml: string): string {
  return xml.replace(/<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">[\s\S]*?<\/Signature>/g, '');
}
