// From the authorizer's answer to the outcome the platform acts on (see ../outcome.ts).
import {
  type AuthorizerStatus,
  type RetConsSitNFe,
  type RetConsStatServ,
  type RetDistDFeInt,
  type RetEnvEvento,
  type RetInutNFe,
} from '@talao/fiscal-xml';
import { type AuthorizerOutcome } from '../outcome.js';
import { type RecordedExchange } from '../transport/exchange.js';

/** 108/109: the authorizer says it is paused — nothing was processed, contingency applies. */
const PAUSED = new Set(['108', '109']);

/**
 * What the authorizer's record says of an NF-e, by the code of its protocol or of a consult: use authorized (100, 150
 * late), denied (110, 301, 302, 303: the number is spent, with a protocol) or cancelled (101, 151 late, 155 out of
 * time). The one table of these codes: the client's outcomes and every reconciliation read it.
 */
export type NfeRecordState = 'authorized' | 'denied' | 'cancelled';
const RECORD_STATES: ReadonlyMap<string, NfeRecordState> = new Map([
  ['100', 'authorized'],
  ['150', 'authorized'],
  ['110', 'denied'],
  ['301', 'denied'],
  ['302', 'denied'],
  ['303', 'denied'],
  ['101', 'cancelled'],
  ['151', 'cancelled'],
  ['155', 'cancelled'],
]);
const codesOf = (state: NfeRecordState) => new Set([...RECORD_STATES].flatMap(([code, s]) => (s === state ? [code] : [])));
export const AUTHORIZED_CODES: ReadonlySet<string> = codesOf('authorized');
export const DENIED_CODES: ReadonlySet<string> = codesOf('denied');

export function nfeRecordState(code: string): NfeRecordState | undefined {
  return RECORD_STATES.get(code);
}

/** NFeAutorizacao4 204: the authorizer already holds an NF-e with this very access key; only a consult tells its state. */
export const NFE_ALREADY_HELD = '204';
/** NFeConsultaProtocolo4 217: "NF-e não consta na base de dados da SEFAZ" — nothing was registered under the key. */
export const NFE_NOT_ON_RECORD = '217';

const EVENT_REGISTERED = new Set(['135', '136', '155']);

type Outcome<T> = AuthorizerOutcome<T>;

export function pausedOutcome<T>(status: AuthorizerStatus, exchanges: RecordedExchange[]): Outcome<T> | undefined {
  if (!PAUSED.has(status.code)) return undefined;
  return {
    status: 'unavailable',
    reason: 'service-paused',
    detail: `${status.code} ${status.message}`,
    code: status.code,
    message: status.message,
    exchanges,
  };
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
  if (RECORD_STATES.has(ret.status.code)) return accepted(ret.status, ret, exchanges, ret.protocol?.protocolNumber);
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
