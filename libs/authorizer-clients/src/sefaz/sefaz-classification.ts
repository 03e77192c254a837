import { type AuthorizerOutcome } from '../outcome.js';
import { type RecordedExchange } from '../transport/exchange.js';
import {
  type RetConsSitNFe, type RetConsStatServ, type RetDistDFeInt, type RetEnvEvento, type RetInutNFe, type SefazStatus,
} from './sefaz-responses.js';

/** 108/109: the authorizer says it is paused — nothing was processed, contingency applies. */
const PAUSED = new Set(['108', '109']);
/** Authorized use (100, 150 late) and denied use (110, 301, 302, 303: the number is spent, with a protocol). */
export const AUTHORIZED_CODES = new Set(['100', '150']);
export const DENIED_CODES = new Set(['110', '301', '302', '303']);
const EVENT_REGISTERED = new Set(['135', '136', '155']);
/** consSitNFe answers describing a document the authorizer knows. */
const DOCUMENT_FOUND = new Set(['100', '101', '110', '150', '151', '155', '301', '302', '303']);

type Outcome<T> = AuthorizerOutcome<T>;

function paused<T>(status: SefazStatus, exchanges: RecordedExchange[]): Outcome<T> | undefined {
  if (!PAUSED.has(status.cStat)) return undefined;
  return { status: 'unavailable', reason: 'service-paused', detail: `${status.cStat} ${status.xMotivo}`, code: status.cStat, message: status.xMotivo, exchanges };
}

function rejected<T>(status: { cStat: string; xMotivo: string }, result: T, exchanges: RecordedExchange[], protocol?: string): Outcome<T> {
  return { status: 'rejected', code: status.cStat, message: status.xMotivo, result, exchanges, ...(protocol ? { protocol } : {}) };
}

export function classifyStatusService(ret: RetConsStatServ, exchanges: RecordedExchange[]): Outcome<RetConsStatServ> {
  if (ret.cStat === '107') return { status: 'accepted', code: ret.cStat, message: ret.xMotivo, result: ret, exchanges };
  return paused(ret, exchanges) ?? rejected(ret, ret, exchanges);
}

export function classifyConsult(ret: RetConsSitNFe, exchanges: RecordedExchange[]): Outcome<RetConsSitNFe> {
  if (DOCUMENT_FOUND.has(ret.cStat)) {
    return { status: 'accepted', code: ret.cStat, message: ret.xMotivo, result: ret, exchanges, ...(ret.protNFe?.nProt ? { protocol: ret.protNFe.nProt } : {}) };
  }
  return paused(ret, exchanges) ?? rejected(ret, ret, exchanges);
}

/** One event per lot: the event's own code decides; a lot-level rejection has no retEvento. */
export function classifyEvent(ret: RetEnvEvento, exchanges: RecordedExchange[]): Outcome<RetEnvEvento> {
  const pause = paused<RetEnvEvento>(ret, exchanges);
  if (pause) return pause;
  const event = ret.events[0];
  if (ret.cStat !== '128' || !event) return rejected(ret, ret, exchanges);
  if (EVENT_REGISTERED.has(event.cStat)) {
    return { status: 'accepted', code: event.cStat, message: event.xMotivo, result: ret, exchanges, ...(event.nProt ? { protocol: event.nProt } : {}) };
  }
  return rejected(event, ret, exchanges);
}

export function classifyInutilizacao(ret: RetInutNFe, exchanges: RecordedExchange[]): Outcome<RetInutNFe> {
  if (ret.cStat === '102') return { status: 'accepted', code: ret.cStat, message: ret.xMotivo, result: ret, exchanges, ...(ret.nProt ? { protocol: ret.nProt } : {}) };
  return paused(ret, exchanges) ?? rejected(ret, ret, exchanges);
}

export function classifyDistribution(ret: RetDistDFeInt, exchanges: RecordedExchange[]): Outcome<RetDistDFeInt> {
  if (ret.cStat === '137' || ret.cStat === '138') return { status: 'accepted', code: ret.cStat, message: ret.xMotivo, result: ret, exchanges };
  return paused(ret, exchanges) ?? rejected(ret, ret, exchanges);
}

export { paused as pausedOutcome, rejected as rejectedOutcome };
