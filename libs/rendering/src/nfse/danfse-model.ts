// What the DANFSe prints, read from the authorized NFS-e (NFSe v1.00/v1.01: infNFSe with the signed DPS inside).
// Values stay the XML's strings (codes already turned into their names); the layout formats them.

export interface DanfsePerson {
  readonly taxId: string;
  readonly municipalRegistration: string;
  readonly phone: string;
  readonly name: string;
  readonly city: string;
  readonly postalCode: string;
  readonly address: string;
  readonly email: string;
}

export interface DanfseReform {
  readonly cst: string;
  readonly classification: string;
  readonly operationIndicator: string;
  readonly place: string;
  readonly base: string;
  readonly stateRate: string;
  readonly stateEffectiveRate: string;
  readonly cityRate: string;
  readonly cityEffectiveRate: string;
  readonly cbsRate: string;
  readonly cbsEffectiveRate: string;
  readonly ibsState: string;
  readonly ibsCity: string;
  readonly ibsTotal: string;
  readonly cbs: string;
  readonly totalWithReform: string;
}

export interface DanfseModel {
  readonly accessKey: string;
  readonly number: string;
  readonly competence: string;
  readonly processedAt: string;
  readonly dpsNumber: string;
  readonly dpsSeries: string;
  readonly dpsIssuedAt: string;
  /** Who issued: prestador, tomador or intermediário. */
  readonly issuedBy: string;
  readonly purpose: string;
  /** tpAmb of the DPS: 2 is the restricted production (homologation). */
  readonly environment: string;
  readonly generatorEnvironment: string;
  readonly issuePlace: string;
  readonly provider: DanfsePerson & { readonly simplesNacional: string; readonly simplesRegime: string };
  readonly taker?: DanfsePerson;
  readonly recipient?: DanfsePerson;
  readonly intermediary?: DanfsePerson;
  readonly service: {
    nationalCode: string;
    municipalCode: string;
    nbs: string;
    place: string;
    codeDescription: string;
    description: string;
  };
  readonly municipalTax: {
    taxation: string;
    incidencePlace: string;
    specialRegime: string;
    immunity: string;
    suspension: string;
    benefit: string;
    deductions: string;
    unconditionalDiscount: string;
    base: string;
    rate: string;
    retention: string;
    issqn: string;
  };
  readonly federalTax: { irrf: string; socialSecurity: string; csll: string; pis: string; cofins: string; pisCofinsRetention: string };
  readonly reform?: DanfseReform;
  readonly totals: { service: string; unconditionalDiscount: string; conditionalDiscount: string; retentions: string; net: string };
  readonly complementary: readonly string[];
  /** tpRetISSQN 2/3, or any federal retention: the printed "retenções" are not all zero. */
  readonly hasRetention: boolean;
}
