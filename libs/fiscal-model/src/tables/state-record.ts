export interface StateRecord {
  /** Two-letter abbreviation (UF), e.g. "SP". */
  readonly uf: string;
  /** IBGE state code, the cUF of the access key, e.g. "35". */
  readonly code: string;
  readonly name: string;
  /** Legal time offset used in dhEmi (no DST in Brazil since 2019). */
  readonly utcOffset: string;
  /** Which authorizer handles model 55 for this state (SP, SVRS, SVAN, …). */
  readonly nfeAuthorizer: string;
  /** Contingency authorizer (tpEmis 6 = SVC-AN, 7 = SVC-RS). */
  readonly contingencyAuthorizer: 'SVC-AN' | 'SVC-RS';
}

export interface MunicipalityRecord {
  /** 7-digit IBGE code (cMun). */
  readonly code: string;
  readonly name: string;
  /** UF of the municipality. */
  readonly state: string;
  /** cUF of the municipality's state. */
  readonly stateCode: string;
}
