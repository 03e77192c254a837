// What the validation rules and the document computation need to know about the issuing company. The gateway
// builds it from the company record; nothing here is read from the request (a request cannot change its issuer).

export type TaxRegime =
  /** CRT 1: Simples Nacional. */
  | 'simples_nacional'
  /** CRT 2: Simples Nacional, revenue above the sublimit. */
  | 'simples_nacional_excess'
  /** CRT 3: normal regime (Lucro Presumido / Real). */
  | 'normal'
  /** CRT 4: MEI. */
  | 'mei';

export interface IssuerAddress {
  readonly street: string;
  readonly number: string;
  readonly complement?: string;
  readonly district: string;
  /** 7-digit IBGE code. */
  readonly cityCode: string;
  /** UF, e.g. "SP". */
  readonly state: string;
  /** 8 digits. */
  readonly postalCode: string;
  readonly phone?: string;
}

export interface IssuerProfile {
  /** CNPJ (14, alphanumeric allowed) or CPF (11). */
  readonly taxId: string;
  readonly legalName: string;
  readonly tradeName?: string;
  /** IE; required to issue NF-e. */
  readonly stateRegistration?: string;
  /** IM; used in emit/IM and prest/IM. */
  readonly municipalRegistration?: string;
  /** CNAE (7 digits), emitted with IM only. */
  readonly cnae?: string;
  readonly taxRegime: TaxRegime;
  readonly address: IssuerAddress;
  readonly email?: string;
  /** Default NFS-e service code ("1.07", "01.07.01" or "010701") when an item has none. */
  readonly defaultServiceCode?: string;
  /** Default cIndOp (6 digits) for the DPS IBSCBS group. */
  readonly defaultOperationIndicator?: string;
  /** Lei 12.741/2012 approximate tax burden of its services (the DPS's pTotTrib); required for an NFS-e unless MEI. */
  readonly approximateTaxes?: ApproximateTaxes;
}

/** Percentages of the value, as decimal text with 2 places ("13.45"). A type, not an interface: it is stored as JSON. */
export type ApproximateTaxes = {
  readonly federal: string;
  readonly state: string;
  readonly municipal: string;
};

export const CRT_BY_REGIME: Readonly<Record<TaxRegime, '1' | '2' | '3' | '4'>> = {
  simples_nacional: '1',
  simples_nacional_excess: '2',
  normal: '3',
  mei: '4',
};

/** CRT 1 and 4 use CSOSN; CRT 2 and 3 use CST (Ajuste SINIEF 07/05, table B of the layout). */
export function usesCsosn(regime: TaxRegime): boolean {
  return regime === 'simples_nacional' || regime === 'mei';
}
