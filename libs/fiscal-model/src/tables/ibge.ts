import { MUNICIPALITIES } from './generated/municipalities.js';
import { STATES } from './generated/states.js';
import type { MunicipalityRecord, StateRecord } from './state-record.js';

const statesByUf = new Map(STATES.map((s) => [s.uf, s]));
const statesByCode = new Map(STATES.map((s) => [s.code, s]));
let municipalitiesByCode: Map<string, MunicipalityRecord> | undefined;

function municipalityIndex(): Map<string, MunicipalityRecord> {
  // Built on first use: 5,570 rows, about a millisecond.
  if (!municipalitiesByCode) {
    municipalitiesByCode = new Map(MUNICIPALITIES.map(([code, name, state]) => [code, { code, name, state, stateCode: code.slice(0, 2) }]));
  }
  return municipalitiesByCode;
}

/** The IBGE municipality with this 7-digit code (string or number), or undefined. */
export function findMunicipality(code: string | number): MunicipalityRecord | undefined {
  return municipalityIndex().get(String(code));
}

/** The state by its abbreviation (UF, case-insensitive), or undefined. */
export function findState(uf: string): StateRecord | undefined {
  return statesByUf.get(uf.toUpperCase());
}

/** The state by its IBGE code (cUF), or undefined. */
export function findStateByCode(code: string | number): StateRecord | undefined {
  return statesByCode.get(String(code).padStart(2, '0'));
}

export function allStates(): readonly StateRecord[] {
  return STATES;
}
