// Date-times of the NF-e / NFS-e layouts (TDateTimeUTC): local wall-clock time plus the UTC offset, to the second,
// e.g. 2026-03-01T10:15:00-03:00. The offset is whole hours (the schema pattern allows nothing else).
import { XmlBuildError } from './canonical-xml.js';

const OFFSET = /^([+-])(0[0-9]|1[0-2]):00$/;

/** Formats `instant` as seen from a zone `utcOffset` ("-03:00") away from UTC. */
export function formatFiscalDateTime(instant: Date, utcOffset: string): string {
  const match = OFFSET.exec(utcOffset);
  if (!match) throw new XmlBuildError(`utcOffset: expected ±hh:00, received ${JSON.stringify(utcOffset)}`);
  if (Number.isNaN(instant.getTime())) throw new XmlBuildError('date-time: invalid Date');
  const minutes = (match[1] === '-' ? -1 : 1) * Number(match[2]) * 60;
  const local = new Date(instant.getTime() + minutes * 60_000);
  const iso = local.toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ, in "local" time after the shift
  return `${iso.slice(0, 19)}${utcOffset}`;
}

// Brazil has no daylight saving time since 2019. Fernando de Noronha (PE, -02:00) is not modelled: issuers there
// are rare and the state authorizer accepts the state's main offset.
const OFFSET_BY_UF: Readonly<Record<string, string>> = {
  AC: '-05:00',
  AM: '-04:00',
  RO: '-04:00',
  RR: '-04:00',
  MT: '-04:00',
  MS: '-04:00',
};

/** The legal UTC offset of a state (UF letters), e.g. "SP" → "-03:00". */
export function stateUtcOffset(uf: string): string {
  return OFFSET_BY_UF[uf] ?? '-03:00';
}
