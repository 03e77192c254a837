// From the authorizer's answer to the outcome the platform acts on (see ../outcome.ts).
import {
  type AuthorizerStatus, type RetConsSitNFe, type RetConsStatServ, type RetDistDFeInt, type RetEnvEvento, type RetInutNFe,
} from '@talao/fiscal-xml';
import { type AuthorizerOutcome } from '../outcome.js';
import { type RecordedExchange } from '../transport/exchange.js';

/** 108/109: the authorizer says it is paused — nothing was processed, contingency applies. */
const PAUSED = new Set(['108', '109']);
/** Authorized use (100, 150 late) and denied use (110, 301, 302, 303: the number is spent, with a protocol). */
export const AUTHORIZED_CODES = new Set(['100', '150']);
export const DENIED_CODES = new Set(['110', '301', '302', '303']);
const EVENT_REGISTERED = new Set(['135', '136', '155']);
/** consSitNFe answers describing a document the authorizer knows. */
const DOCUMENT_FOUND = new Set(['100', '101', '110', '150', '151', '155', '301', '302', '303']);

type Outcome<T> = AuthorizerOutcome<T>;

export function pausedOutcome<T>(status: AuthorizerStatus, exchanges: RecordedExchange[]): Outcome<T> | undefined {
  if (!PAUSED.has(status.code)) return undefined;
  return { status: 'unavailable', reason: 'service-paused', detail: `${status.code} ${status.message}`, code: status.code, message: status.message, exchanges };
}

export function rejectedOutcome<T>(status: AuthorizerStatus, result: T, exchanges: RecordedExchange[], protocol?: string): Outcome<T> {
  return { status: 'rejected', code: status.code, message: status.message, result, exchanges, ...(protocol ? { protocol } : {}) };
}

function accepted<T>(status: AuthorizerStatus, result: T, exchanges: RecordedExchange[], protocol?: string): Outcome<T> {
  return { status: 'accepted', code: status.code, message: status.message, result, exchanges, ...(protocol ? { protocol } : {}) };
}

export function classifyStatusService(ret: RetConsStatServ, exchanges: RecordedExchange[]): Outcome<RetConsStatServ> {
  if (ret.status.code === '107') return accepted(ret.status, ret, exchanges);
  return pausedOutcome(ret.status, exchanges) ?? rejectedOutcome(ret.status, ret, exchanges);
}

export function classifyConsult(ret: RetConsSitNFe, exchanges: RecordedExchange[]): Outcome<RetConsSitNFe> {
  if (DOCUMENT_FOUND.has(ret.status.code)) return accepted(ret.status, ret, exchanges, ret.protocol?.protocolNumber);
  return pausedOutcome(ret.status, exchanges) ?? rejectedOutcome(ret.status, ret, exchanges);
}

/** One event per lot: the event's own code decides; a lot-level rejection has no retEvento. */
export function classifyEvent(ret: RetEnvEvento, exchanges: RecordedExchange[]): Outcome<RetEnvEvento> {
  const pause = pausedOutcome<RetEnvEvento>(ret.status, exchanges);
  if (pause) return pause;
  const event = ret.results[0];
  if (ret.status.code !== '128' || !event) return rejectedOutcome(ret.status, ret, exchanges);
  if (EVENT_REGISTERED.has(event.status.code)) return accepted(event.status, ret, exchanges, event.protocolNumber);
  return rejectedOutcome(event.status, ret, exchanges);
}

export function classifyInutilizacao(ret: RetInutNFe, exchanges: RecordedExchange[]): Outcome<RetInutNFe> {
  if (ret.status.code === '102') return accepted(ret.status, ret, exchanges, ret.protocolNumber);
  return pausedOutcome(ret.status, exchanges) ?? rejectedOutcome(ret.status, ret, exchanges);
}

export function classifyDistribution(ret: RetDistDFeInt, exchanges: RecordedExchange[]): Outcome<RetDistDFeInt> {
  if (ret.status.code === '137' || ret.status.code === '138') return accepted(ret.status, ret, exchanges);
  return pausedOutcome(ret.status, exchanges) ?? rejectedOutcome(ret.status, ret, exchanges);
}
