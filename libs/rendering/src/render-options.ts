// What the caller knows about a document that its XML does not say: the authorized XML never changes, while a
// cancellation (or an NFS-e replacement) and correction letters arrive later as events.

/** `replaced` is the NFS-e's substitution (SUBSTITUÍDA); an NF-e is never replaced. */
export type DocumentStatus = 'authorized' | 'cancelled' | 'replaced';

/** The latest correction letter (CC-e) registered for an NF-e: it supersedes the earlier ones, so only it is printed. */
export interface CorrectionLetter {
  /** nSeqEvento, 1–20. */
  readonly sequence: number;
  /** xCorrecao as registered. */
  readonly text: string;
  readonly protocol?: string;
  /** dhRegEvento as registered (ISO 8601 with offset). */
  readonly registeredAt?: string;
}

export interface RenderOptions {
  /** Default `authorized`. */
  readonly status?: DocumentStatus;
  readonly correction?: CorrectionLetter;
  /**
   * `text` (default) prints the correction letter's text in the additional data; `reference` prints only that a
   * correction letter exists (number, protocol, date) and where to consult it.
   */
  readonly correctionPrint?: 'text' | 'reference';
}
