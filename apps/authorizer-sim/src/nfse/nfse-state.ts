// What the simulated Sefin Nacional / ADN remember: NFS-e by access key and by DPS id, their events, and the ADN
// distribution feed per tax id (NSU numbered, as /contribuintes/DFe serves it).

export interface StoredNfse {
  key: string;
  dpsId: string;
  tpAmb: '1' | '2';
  providerTaxId: string;
  takerTaxId?: string;
  /** The signed NFS-e as served (gzip+base64 on the wire). */
  nfseXml: string;
  issuedAt: Date;
  cancelled: boolean;
  /** Event XML by `<tipo>/<seq>`. */
  events: Map<string, string>;
}

export interface AdnFeedItem {
  nsu: number;
  key: string;
  documentType: 'NFSE' | 'EVENTO';
  eventType?: string;
  xml: string;
  generatedAt: string;
}

export class NfseState {
  private readonly byKey = new Map<string, StoredNfse>();
  private readonly byDps = new Map<string, string>();
  private readonly feeds = new Map<string, AdnFeedItem[]>();
  private readonly numbers = new Map<string, number>();
  private dfeSequence = 0;

  /** nNFSe: sequential per provider and municipality. */
  nextNumber(providerTaxId: string, municipality: string): number {
    const id = `${providerTaxId}|${municipality}`;
    const next = (this.numbers.get(id) ?? 0) + 1;
    this.numbers.set(id, next);
    return next;
  }

  /** nDFSe / nDFe: the national environment's own sequence. */
  nextDfeNumber(): number {
    this.dfeSequence += 1;
    return this.dfeSequence;
  }

  store(nfse: StoredNfse): void {
    this.byKey.set(nfse.key, nfse);
    this.byDps.set(`${nfse.tpAmb}|${nfse.dpsId}`, nfse.key);
  }

  findByKey(key: string): StoredNfse | undefined {
    return this.byKey.get(key);
  }

  /** Every NFS-e a provider had issued (the control API's issued view). */
  issuedBy(providerTaxId: string): StoredNfse[] {
    return [...this.byKey.values()].filter((n) => n.providerTaxId === providerTaxId);
  }

  findByDps(tpAmb: string, dpsId: string): StoredNfse | undefined {
    const key = this.byDps.get(`${tpAmb}|${dpsId}`);
    return key ? this.byKey.get(key) : undefined;
  }

  feed(taxId: string, item: Omit<AdnFeedItem, 'nsu'>): void {
    const list = this.feeds.get(taxId) ?? [];
    list.push({ ...item, nsu: list.length + 1 });
    this.feeds.set(taxId, list);
  }

  /** From NSU on (inclusive), up to 50 documents, as ADN's /contribuintes/DFe/{NSU}?lote=true. */
  /** ADN distribution queries received per tax id (tests prove a read never reached the authority). */
  private readonly queries = new Map<string, number>();

  countQuery(taxId: string): void {
    this.queries.set(taxId, (this.queries.get(taxId) ?? 0) + 1);
  }

  queryCount(taxId: string): number {
    return this.queries.get(taxId) ?? 0;
  }

  feedFrom(taxId: string, nsu: number, batch: boolean): AdnFeedItem[] {
    const items = (this.feeds.get(taxId) ?? []).filter((i) => i.nsu >= nsu);
    return batch ? items.slice(0, 50) : items.slice(0, 1);
  }

  clear(): void {
    this.byKey.clear();
    this.byDps.clear();
    this.feeds.clear();
    this.queries.clear();
    this.numbers.clear();
    this.dfeSequence = 0;
  }
}
