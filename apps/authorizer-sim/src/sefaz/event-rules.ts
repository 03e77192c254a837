// The rules of each NF-e event the simulator registers, on top of the common ones (Id, signature, key, author).
import { type StoredEvent, type StoredNfe } from '../state/sefaz-state.js';

export const CANCELLATION = '110111';
export const CORRECTION_LETTER = '110110';
export const CONFIRMATION = '210200';
export const AWARENESS = '210210';
export const UNKNOWN_OPERATION = '210220';
export const OPERATION_NOT_PERFORMED = '210240';
const CONCLUSIVE = new Set([CONFIRMATION, UNKNOWN_OPERATION, OPERATION_NOT_PERFORMED]);
export const MANIFESTATIONS = new Set([AWARENESS, ...CONCLUSIVE]);

export const EVENT_DESCRIPTIONS: Record<string, string> = {
  [CANCELLATION]: 'Cancelamento registrado',
  [CORRECTION_LETTER]: 'Carta de Correção registrada',
  [CONFIRMATION]: 'Confirmação da Operação registrada',
  [AWARENESS]: 'Ciência da Operação registrada',
  [UNKNOWN_OPERATION]: 'Desconhecimento da Operação registrado',
  [OPERATION_NOT_PERFORMED]: 'Operação não Realizada registrada',
};

/** Legal window of a cancellation after authorization (Ajuste SINIEF 07/05 as applied by the authorizers). */
export const CANCELLATION_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The CC-e may be corrected up to 20 times (nSeqEvento 1–20). */
export const MAX_CORRECTION_SEQUENCE = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Deadline of a conclusive manifestation, counted from the authorization: 90 days for an NF-e authorized from
 * 2026-06-01 (00:00 Brasília) on, 180 days for one authorized before (the rule as the authority applies it to each
 * document by its authorization date).
 */
export const CONCLUSIVE_CUTOVER_MS = Date.parse('2026-06-01T03:00:00.000Z');
export const conclusiveDeadlineMs = (authorizedAt: Date) => (authorizedAt.getTime() >= CONCLUSIVE_CUTOVER_MS ? 90 : 180) * DAY_MS;
/** Awareness (ciência da operação): 10 days after the authorization. */
export const AWARENESS_DEADLINE_MS = 10 * DAY_MS;
/** The second conclusive event (a correction) within 30 days of the first one. */
export const CORRECTION_WINDOW_MS = 30 * DAY_MS;
/** A conclusive manifestation may be registered at most twice (the second rectifies the first). */
export const MAX_CONCLUSIVE_MANIFESTATIONS = 2;

export interface EventFacts {
  tpEvento: string;
  nSeqEvento: number;
  authorTaxId: string;
  /** detEvento/nProt of a cancellation. */
  protocol?: string;
  /** dhEvento. */
  eventAt: Date;
}

/** Clock tolerance for an event time ahead of the authorizer's (578 beyond it). */
const EVENT_CLOCK_TOLERANCE_MS = 5 * 60 * 1000;

const sameEvent = (e: StoredEvent, f: EventFacts) => e.tpEvento === f.tpEvento && e.nSeqEvento === f.nSeqEvento;

/** cStat of the first broken rule, or undefined when the event can be registered. */
export function eventRejection(document: StoredNfe, facts: EventFacts, now: Date): string | undefined {
  if (Number.isNaN(facts.eventAt.getTime()) || facts.eventAt.getTime() > now.getTime() + EVENT_CLOCK_TOLERANCE_MS) return '578';
  if (facts.eventAt < document.issuedAt) return '577';
  if (document.events.some((e) => sameEvent(e, facts))) return '573';
  const issuerEvent = facts.tpEvento === CANCELLATION || facts.tpEvento === CORRECTION_LETTER;
  if (issuerEvent && facts.authorTaxId !== document.issuerTaxId) return '574';
  if (MANIFESTATIONS.has(facts.tpEvento) && facts.authorTaxId !== document.recipientTaxId) return '575';

  switch (facts.tpEvento) {
    case CANCELLATION:
      if (document.cancelled) return '573';
      // The recipient confirmed the operation: the issuer can no longer cancel (221), whatever came after it.
      if (document.events.some((e) => e.tpEvento === CONFIRMATION)) return '221';
      if (facts.protocol !== document.nProt) return '222';
      if (now.getTime() - document.authorizedAt.getTime() > CANCELLATION_WINDOW_MS) return '501';
      return undefined;
    case CORRECTION_LETTER:
      if (document.cancelled) return '580';
      if (facts.nSeqEvento > MAX_CORRECTION_SEQUENCE) return '594';
      return undefined;
    default:
      break;
  }
  if (!MANIFESTATIONS.has(facts.tpEvento)) return '491';
  const age = now.getTime() - document.authorizedAt.getTime();
  const conclusive = document.events.filter((e) => CONCLUSIVE.has(e.tpEvento));
  if (facts.tpEvento === AWARENESS) {
    if (document.cancelled) return '650';
    if (conclusive.length > 0) return '655';
    if (age > AWARENESS_DEADLINE_MS) return '596';
    return undefined;
  }
  if (age > conclusiveDeadlineMs(document.authorizedAt)) return '596';
  if (facts.tpEvento === UNKNOWN_OPERATION && document.cancelled) return '651';
  if (conclusive.length >= MAX_CONCLUSIVE_MANIFESTATIONS) return '573';
  const first = conclusive[0];
  if (first && now.getTime() - first.registeredAt.getTime() > CORRECTION_WINDOW_MS) return '596';
  return undefined;
}
