// Test support: the shared fiscal samples (../shared/fiscal relative to the repository root).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// This file is libs/xml-signing/src/testing/: the repository root is four levels up, shared/ is its sibling.
const SAMPLES = fileURLToPath(new URL('../../../../../shared/fiscal/samples/', import.meta.url));

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
