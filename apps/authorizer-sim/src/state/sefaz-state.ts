// What the simulated authorizers remember while the process lives: NF-e by key, numbering, protocols, receipts,
// events and inutilizações. One store for every authorizer, as the real ones share the national picture through AN.

export interface StoredEvent {
  tpEvento: string;
  nSeqEvento: number;
  nProt: string;
  registeredAt: Date;
  authorTaxId: string;
  /** procEventoNFe as served by consSitNFe and DistDFe. */
  procEventoXml: string;
}

export interface StoredNfe {
  key: string;
  tpAmb: '1' | '2';
  cUF: string;
  model: string;
  issuerTaxId: string;
  recipientTaxId?: string;
  series: number;
  number: number;
  issuedAt: Date;
  /** dhEmi as written in the NF-e (resNFe repeats it). */
  issuedAtText: string;
  authorizedAt: Date;
  nProt: string;
  /**
   * The signed NFe as received (UTF-8), and its protocol: nfeProc is these two joined. Bytes off the JS heap, in a
   * buffer of their own: a long run holds thousands, and as strings (each a slice keeping its whole SOAP request
   * alive) every full GC marked and moved them, its pause growing with the run (43–50 ms seen in a benchmark).
   * Every field owns its memory (own-memory.ts).
   */
  signedNfe: Buffer;
  protNFe: string;
  cancelled: boolean;
  events: StoredEvent[];
  /** vNF, for resNFe. */
  totalValue: string;
  issuerName: string;
  issuerStateRegistration: string;
}

export interface Receipt {
  nRec: string;
  tpAmb: '1' | '2';
  cUF: string;
  /** protNFe of the lot's NF-e, ready when the simulated processing time has passed. */
  protNFe: string;
  readyAt: number;
}

export interface InutilizedRange {
  tpAmb: '1' | '2';
  cUF: string;
  cnpj: string;
  model: string;
  series: number;
  first: number;
  last: number;
  nProt: string;
}

const numberingKey = (tpAmb: string, model: string, cUF: string, issuer: string, series: number, number: number) =>
  `${tpAmb}|${model}|${cUF}|${issuer}|${series}|${number}`;

export class SefazState {
  private readonly documents = new Map<string, StoredNfe>();
  private readonly numbering = new Map<string, string>();
  private readonly receipts = new Map<string, Receipt>();
  private readonly inutilized: InutilizedRange[] = [];
  private sequence = 0;

  /** 15 digits as the real ones: environment (1), cUF (2), year (2), sequence (10). */
  nextProtocol(tpAmb: string, cUF: string, at: Date): string {
    this.sequence += 1;
    return `${tpAmb === '1' ? '1' : '2'}${cUF}${String(at.getUTCFullYear() % 100).padStart(2, '0')}${String(this.sequence).padStart(10, '0')}`;
  }

  /** Receipt numbers: cUF (2) + 13 digits, like the real services. */
  nextReceiptNumber(cUF: string): string {
    this.sequence += 1;
    return `${cUF}${String(this.sequence).padStart(13, '0')}`;
  }

  findByKey(key: string): StoredNfe | undefined {
    return this.documents.get(key);
  }

  findByNumber(tpAmb: string, model: string, cUF: string, issuer: string, series: number, number: number): StoredNfe | undefined {
    const key = this.numbering.get(numberingKey(tpAmb, model, cUF, issuer, series, number));
    return key ? this.documents.get(key) : undefined;
  }

  store(document: StoredNfe): void {
    this.documents.set(document.key, document);
    this.numbering.set(
      numberingKey(document.tpAmb, document.model, document.cUF, document.issuerTaxId, document.series, document.number),
      document.key,
    );
  }

  addReceipt(receipt: Receipt): void {
    this.receipts.set(receipt.nRec, receipt);
  }

  findReceipt(nRec: string): Receipt | undefined {
    return this.receipts.get(nRec);
  }

  findInutilized(tpAmb: string, cUF: string, cnpj: string, model: string, series: number, number: number): InutilizedRange | undefined {
    return this.inutilized.find(
      (r) =>
        r.tpAmb === tpAmb &&
        r.cUF === cUF &&
        r.cnpj === cnpj &&
        r.model === model &&
        r.series === series &&
        r.first <= number &&
        number <= r.last,
    );
  }

  addInutilized(range: InutilizedRange): void {
    this.inutilized.push(range);
  }

  /** Authorized numbers inside a range (inutilização of a range holding them is refused). */
  authorizedNumberIn(
    tpAmb: string,
    cUF: string,
    cnpj: string,
    model: string,
    series: number,
    first: number,
    last: number,
  ): StoredNfe | undefined {
    for (const document of this.documents.values()) {
      if (
        document.tpAmb === tpAmb &&
        document.cUF === cUF &&
        document.issuerTaxId === cnpj &&
        document.model === model &&
        document.series === series &&
        document.number >= first &&
        document.number <= last
      ) {
        return document;
      }
    }
    return undefined;
  }

  /** Every NF-e an issuer registered, and the ranges it voided (the control API's issued view). */
  issuedBy(issuerTaxId: string): { documents: StoredNfe[]; inutilized: InutilizedRange[] } {
    return {
      documents: [...this.documents.values()].filter((d) => d.issuerTaxId === issuerTaxId),
      inutilized: this.inutilized.filter((r) => r.cnpj === issuerTaxId),
    };
  }

  clear(): void {
    this.documents.clear();
    this.numbering.clear();
    this.receipts.clear();
    this.inutilized.length = 0;
  }
}
