// The simulator keeps every authorized document for the life of the process (consults, events, DistDFe): thousands in
// a benchmark, more in a long `npm start`. What it keeps must own its memory. A string read from a request is a slice
// pinning the whole SOAP message; a string built by concatenation stays a tree of its pieces until something flattens
// it; a Buffer under 32 KiB from Buffer.from is a window on a shared 64 KiB pool slab. Kept, each pins many times its
// own size, and every full GC marks all of it.

/** UTF-8 bytes in an ArrayBuffer of their own. */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}

/**
 * A flat string of its own: not a slice of a larger string, not a concatenation tree. Decoded from a pool buffer,
 * which the string does not keep: cheaper than an ArrayBuffer per call, and these are called for every field.
 */
export const ownCopy = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');
