// The version of a printed document: what the PDF depends on besides the authorized XML, which never changes. A
// cache keeps one PDF per (access key, version); a cancellation, a new correction letter or a new layout revision
// yields a new version, so the PDF is rendered again. The string is safe in an ETag and a storage key.
import type { DocumentStatus } from './render-options.js';

/** Raised whenever the layouts change what they print, so PDFs cached under the old revision are rendered again. */
export const LAYOUT_REVISION = 2;

export interface VersionInput {
  readonly status?: DocumentStatus;
  /** The sequence (nSeqEvento) of the latest correction letter, if any. */
  readonly latestCorrectionSequence?: number;
  /** How a correction letter is printed changes the PDF too. */
  readonly correctionPrint?: 'text' | 'reference';
}

/** For example `r2.authorized`, `r2.authorized.cce2`, `r2.cancelled.cce2-ref`. */
export function documentVersion(input: VersionInput = {}): string {
  const parts = [`r${LAYOUT_REVISION}`, input.status ?? 'authorized'];
  const sequence = input.latestCorrectionSequence;
  if (sequence !== undefined && sequence > 0) parts.push(`cce${sequence}${input.correctionPrint === 'reference' ? '-ref' : ''}`);
  return parts.join('.');
}
