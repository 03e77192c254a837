// Dates as the layouts print them: local wall time of the issuer's state with its UTC offset (no DST).
import { findState } from '../tables/ibge.js';

export interface LocalTime {
  /** AAAA-MM-DDThh:mm:ss±hh:mm */
  readonly dateTime: string;
  /** AAAA-MM-DD */
  readonly date: string;
  /** YYMM for the access key. */
  readonly yearMonth: string;
}

export function localTime(at: Date, uf: string): LocalTime {
  const state = findState(uf);
  if (!state) throw new RangeError(`unknown state ${uf}`);
  const offset = state.utcOffset;
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + minutes * 60_000).toISOString(); // drop ms
  const date = local.slice(0, 10);
  return { dateTime: `${local.slice(0, 19)}${offset}`, date, yearMonth: local.slice(2, 4) + local.slice(5, 7) };
}
