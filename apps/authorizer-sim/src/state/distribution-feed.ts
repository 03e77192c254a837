// NFeDistribuicaoDFe feed: per interested tax id, documents numbered by NSU (15 digits), and the query pace the
// real service enforces (656 "Consumo Indevido" when asked again too soon after an empty answer).
import { ownCopy } from './own-memory.js';

export interface FeedDocument {
  nsu: string;
  /** e.g. `resNFe_v1.01.xsd`, `procNFe_v4.00.xsd`, `resEvento_v1.01.xsd`, `procEventoNFe_v1.00.xsd`. */
  schema: string;
  xml: string;
}

/** After an answer with nothing new, the real service wants an hour's pause before the next distNSU. */
export const EMPTY_FEED_PAUSE_MS = 60 * 60 * 1000;

export class DistributionFeed {
  private readonly feeds = new Map<string, FeedDocument[]>();
  private readonly emptyAnswerAt = new Map<string, number>();
  /** Distribution queries received per tax id, so tests can prove a read never reached the authority. */
  private readonly queries = new Map<string, number>();

  add(taxId: string, schema: string, xml: string): FeedDocument {
    const feed = this.feeds.get(taxId) ?? [];
    const document = { nsu: String(feed.length + 1).padStart(15, '0'), schema, xml: ownCopy(xml) };
    feed.push(document);
    this.feeds.set(taxId, feed);
    return document;
  }

  /** Up to 50 documents after ultNSU, and the highest NSU of the tax id. */
  after(taxId: string, ultNSU: string): { documents: FeedDocument[]; maxNSU: string } {
    const feed = this.feeds.get(taxId) ?? [];
    const documents = feed.filter((d) => d.nsu > ultNSU.padStart(15, '0')).slice(0, 50);
    return { documents, maxNSU: feed.at(-1)?.nsu ?? '000000000000000' };
  }

  one(taxId: string, nsu: string): FeedDocument | undefined {
    return (this.feeds.get(taxId) ?? []).find((d) => d.nsu === nsu.padStart(15, '0'));
  }

  /** Whether this query comes too soon after an empty answer (656), recording empty answers as they happen. */
  tooSoon(taxId: string, now: number): boolean {
    const last = this.emptyAnswerAt.get(taxId);
    return last !== undefined && now - last < EMPTY_FEED_PAUSE_MS;
  }

  recordEmpty(taxId: string, now: number): void {
    this.emptyAnswerAt.set(taxId, now);
  }

  countQuery(taxId: string): void {
    this.queries.set(taxId, (this.queries.get(taxId) ?? 0) + 1);
  }

  /** Queries asked for the tax id and documents fed to it so far. */
  stats(taxId: string): { queries: number; documents: number } {
    return { queries: this.queries.get(taxId) ?? 0, documents: this.feeds.get(taxId)?.length ?? 0 };
  }

  clearPace(taxId: string): void {
    this.emptyAnswerAt.delete(taxId);
  }

  clear(): void {
    this.feeds.clear();
    this.emptyAnswerAt.clear();
    this.queries.clear();
  }
}
