// gzip + base64, the wrapping of DistDFe docZip and of every XML in the NFS-e Nacional JSON API.
import { gunzipSync, gzipSync } from 'node:zlib';
import { XmlParseError } from './hardened-xml.js';

/** 32 MiB of inflated XML at most: a decompression bomb stops there instead of exhausting memory. */
export const DEFAULT_MAX_INFLATED_BYTES = 32 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function decodeGzipBase64(encoded: string, maxInflatedBytes = DEFAULT_MAX_INFLATED_BYTES): string {
  const compact = typeof encoded === 'string' ? encoded.replace(/\s+/g, '') : '';
  if (compact === '' || compact.length % 4 !== 0 || !BASE64.test(compact)) throw new XmlParseError('gzip+base64: not base64');
  try {
    return gunzipSync(Buffer.from(compact, 'base64'), { maxOutputLength: maxInflatedBytes }).toString('utf8');
  } catch (error) {
    throw new XmlParseError(`gzip+base64: ${(error as Error).message}`);
  }
}

export function encodeGzipBase64(xml: string): string {
  return gzipSync(Buffer.from(xml, 'utf8')).toString('base64');
}
