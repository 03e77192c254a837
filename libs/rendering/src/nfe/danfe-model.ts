// What the DANFE prints, read from the nfeProc. Values stay the XML's strings; the layout formats them.

export interface DanfeAddress {
  readonly street: string;
  readonly district: string;
  readonly city: string;
  readonly state: string;
  readonly postalCode: string;
  readonly phone: string;
}

export interface DanfeParty {
  readonly name: string;
  readonly taxId: string;
  readonly stateRegistration: string;
  readonly address: DanfeAddress;
}

export interface DanfeIssuer extends DanfeParty {
  readonly tradeName: string;
  readonly stateRegistrationSt: string;
  readonly municipalRegistration: string;
  /** CRT 1 or 4 (Simples Nacional): the items print O/CSOSN instead of O/CST. */
  readonly simplesNacional: boolean;
}

export interface DanfeItem {
  readonly number: string;
  readonly code: string;
  readonly description: string;
  readonly additionalInfo: string;
  readonly ncm: string;
  readonly cst: string;
  readonly cfop: string;
  readonly unit: string;
  readonly quantity: string;
  readonly unitPrice: string;
  readonly total: string;
  readonly discount: string;
  readonly icmsBase: string;
  readonly icmsValue: string;
  readonly ipiValue: string;
  readonly icmsRate: string;
  readonly ipiRate: string;
}

export interface DanfeTotals {
  readonly icmsBase: string;
  readonly icms: string;
  readonly stBase: string;
  readonly st: string;
  readonly importTax: string;
  readonly icmsSender: string;
  readonly fcpDestination: string;
  readonly pis: string;
  readonly products: string;
  readonly freight: string;
  readonly insurance: string;
  readonly discount: string;
  readonly otherExpenses: string;
  readonly ipi: string;
  readonly icmsDestination: string;
  readonly approximateTaxes: string;
  readonly cofins: string;
  readonly invoice: string;
}

/** IBSCBSTot (and ISTot, vNFTot) of the tax reform, present only on documents that carry the group. */
export interface DanfeReformTotals {
  readonly base: string;
  readonly ibsState: string;
  readonly ibsCity: string;
  readonly ibs: string;
  readonly cbs: string;
  readonly presumedCredit: string;
  readonly selectiveTax: string;
  readonly invoiceWithReform: string;
}

export interface DanfeTransport {
  readonly freightMode: string;
  readonly carrierName: string;
  readonly carrierTaxId: string;
  readonly carrierStateRegistration: string;
  readonly carrierAddress: string;
  readonly carrierCity: string;
  readonly carrierState: string;
  readonly antt: string;
  readonly plate: string;
  readonly plateState: string;
  readonly volumes: ReadonlyArray<{
    quantity: string;
    kind: string;
    brand: string;
    numbering: string;
    grossWeight: string;
    netWeight: string;
  }>;
}

export interface DanfeBilling {
  readonly invoice?: { number: string; original: string; discount: string; net: string };
  readonly installments: ReadonlyArray<{ number: string; dueDate: string; value: string }>;
  readonly payments: ReadonlyArray<{ method: string; value: string }>;
  readonly change: string;
}

export interface DanfeModel {
  readonly accessKey: string;
  readonly number: string;
  readonly series: string;
  /** tpNF: 0 entry, 1 exit. */
  readonly operationType: string;
  readonly natureOfOperation: string;
  readonly issuedAt: string;
  readonly exitAt: string;
  /** tpAmb: 1 production, 2 homologation. */
  readonly environment: string;
  /** tpEmis: 1 normal, 6 SVC-AN, 7 SVC-RS, … */
  readonly emissionType: string;
  readonly contingency?: { at: string; reason: string };
  readonly protocol: { number: string; receivedAt: string };
  readonly issuer: DanfeIssuer;
  readonly recipient?: DanfeParty;
  readonly billing: DanfeBilling;
  readonly totals: DanfeTotals;
  readonly reformTotals?: DanfeReformTotals;
  readonly transport: DanfeTransport;
  readonly items: readonly DanfeItem[];
  readonly issqn?: { municipalRegistration: string; services: string; base: string; value: string };
  readonly additionalInfo: { taxpayer: string; fisco: string };
}
