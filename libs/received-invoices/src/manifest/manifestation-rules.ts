// The recipient's manifestation on a received NF-e (SPEC.md "Recipient manifestation"): the authority's rules, checked
// here before anything is stored or sent, each refusal carrying the authority's own code and message, so a request
// the national environment would refuse never reaches it. Pure: the gateway and the `manifest` job share it.
//
// Deadlines are counted from the NF-e's authorization (dhRecbto of its protocol):
// - awareness (210210): 10 days;
// - conclusive events (210200, 210220, 210240): 90 days for an NF-e authorized on or after 2026-06-01 (00:00 Brasília),
//   180 days for one authorized before. The rule is applied by authorization date so that no document already
//   received loses, on the day the rule starts, a deadline it was counting on;
// - a correction (the second conclusive event) within 30 days of the first one, and inside the conclusive deadline.
// After the conclusive deadline without a conclusive event the operation is deemed confirmed (nothing is filed).

export const AWARENESS = '210210';
export const CONFIRMATION = '210200';
export const UNKNOWN_OPERATION = '210220';
export const OPERATION_NOT_PERFORMED = '210240';
export const MANIFESTATION_CODES = [AWARENESS, CONFIRMATION, UNKNOWN_OPERATION, OPERATION_NOT_PERFORMED] as const;
export type ManifestationCode = (typeof MANIFESTATION_CODES)[number];
const CONCLUSIVE: ReadonlySet<string> = new Set([CONFIRMATION, UNKNOWN_OPERATION, OPERATION_NOT_PERFORMED]);
export const isConclusive = (code: string): boolean => CONCLUSIVE.has(code);

export const DAY_MS = 86_400_000;
export const AWARENESS_DAYS = 10;
export const CONCLUSIVE_DAYS = 90;
export const CONCLUSIVE_DAYS_BEFORE_CUTOVER = 180;
/** 2026-06-01 00:00 in Brasília (UTC−3): NF-e authorized from this instant on have 90 days. */
export const CONCLUSIVE_CUTOVER = new Date('2026-06-01T03:00:00.000Z');
export const CORRECTION_DAYS = 30;
/** A conclusive event and its one correction: the third conclusive event is refused (573, as the authorizer does). */
export const MAX_CONCLUSIVE_EVENTS = 2;
/** 210240's xJust (SPEC.md "manifestation justification"). */
export const JUSTIFICATION_LENGTH = { min: 15, max: 255 } as const;

/** What the full XML comes with: every manifestation but unknown operation (SPEC.md). */
export const grantsFullXml = (code: string): boolean => code !== UNKNOWN_OPERATION;

/** The authority's messages (../shared/fiscal/webservices/cstat.json) of the codes checked locally. */
export const AUTHORITY_MESSAGES = {
  '573': 'Rejeição: Duplicidade de Evento',
  '580': 'Rejeição: O evento exige uma NF-e autorizada',
  '596': 'Rejeição: Evento apresentado fora do prazo: [prazo vigente]',
  '650': 'Rejeição: Evento de "Ciência da Emissão" para NF-e Cancelada ou Denegada',
  '651': 'Rejeição: Evento de "Desconhecimento da Operação" para NF-e Cancelada ou Denegada',
  '655': 'Rejeição: Evento de Ciência da Emissão informado após a manifestação final do destinatário',
} as const;
type AuthorityCode = keyof typeof AUTHORITY_MESSAGES;

export const MANIFESTATION_STATES = ['none', 'awareness', 'confirmed', 'unknown_operation', 'not_performed', 'deemed_confirmed'] as const;
export type ManifestationState = (typeof MANIFESTATION_STATES)[number];

/** The state each registered code puts the document in. */
export const NAMES: Readonly<Record<ManifestationCode, ManifestationState>> = {
  [AWARENESS]: 'awareness',
  [CONFIRMATION]: 'confirmed',
  [UNKNOWN_OPERATION]: 'unknown_operation',
  [OPERATION_NOT_PERFORMED]: 'not_performed',
};

/** The received NF-e as the rules need it. */
export interface ManifestedDocument {
  documentType: 'nfe' | 'nfse';
  situation: string;
  authorizedAt: Date | null;
}

/** A manifestation already filed on the document (any status). */
export interface FiledManifestation {
  eventType: string;
  sequence: number;
  status: 'pending' | 'registered' | 'rejected' | string;
  justification: string | null;
  registeredAt: Date | null;
}

export interface ManifestationDeadlines {
  awareness: Date;
  conclusive: Date;
  /** Until when the conclusive event in force may be corrected; null without one or once corrected. */
  correction: Date | null;
}

export function conclusiveDays(authorizedAt: Date): number {
  return authorizedAt.getTime() >= CONCLUSIVE_CUTOVER.getTime() ? CONCLUSIVE_DAYS : CONCLUSIVE_DAYS_BEFORE_CUTOVER;
}

const registeredOf = (filed: readonly FiledManifestation[]) =>
  filed.filter((m) => m.status === 'registered').sort((a, b) => (a.registeredAt?.getTime() ?? 0) - (b.registeredAt?.getTime() ?? 0));

export function deadlinesOf(authorizedAt: Date, filed: readonly FiledManifestation[]): ManifestationDeadlines {
  const conclusive = new Date(authorizedAt.getTime() + conclusiveDays(authorizedAt) * DAY_MS);
  const final = registeredOf(filed).filter((m) => isConclusive(m.eventType));
  const first = final[0]?.registeredAt;
  const correction =
    first && final.length < MAX_CONCLUSIVE_EVENTS
      ? new Date(Math.min(first.getTime() + CORRECTION_DAYS * DAY_MS, conclusive.getTime()))
      : null;
  return { awareness: new Date(authorizedAt.getTime() + AWARENESS_DAYS * DAY_MS), conclusive, correction };
}

/** Where the document stands: the latest registered conclusive event counts; none past the deadline is a confirmation. */
export function manifestationStateOf(
  authorizedAt: Date | null,
  filed: readonly FiledManifestation[],
  now: Date,
): { state: ManifestationState; awaitingConclusive: boolean; deadlines: ManifestationDeadlines | null } {
  const registered = registeredOf(filed);
  const latestConclusive = registered.filter((m) => isConclusive(m.eventType)).at(-1);
  const deadlines = authorizedAt ? deadlinesOf(authorizedAt, filed) : null;
  if (latestConclusive) return { state: NAMES[latestConclusive.eventType as ManifestationCode], awaitingConclusive: false, deadlines };
  if (deadlines && now > deadlines.conclusive) return { state: 'deemed_confirmed', awaitingConclusive: false, deadlines };
  const aware = registered.some((m) => m.eventType === AWARENESS);
  return { state: aware ? 'awareness' : 'none', awaitingConclusive: true, deadlines };
}

export interface ManifestationRequest {
  code: ManifestationCode;
  justification: string | null;
}

export type ManifestationCheck =
  | { ok: true; sequence: number }
  /** A request identical to one still in flight: resume it, file nothing new. */
  | { ok: 'in-flight'; pending: FiledManifestation }
  | { ok: false; status: 409; detail: { code: string; message: string; deadline?: string } };

const refuse = (code: AuthorityCode, deadline?: Date, days?: number): ManifestationCheck => ({
  ok: false,
  status: 409,
  detail: {
    code,
    message:
      code === '596' && days !== undefined
        ? AUTHORITY_MESSAGES['596'].replace('[prazo vigente]', `${days} dias`)
        : AUTHORITY_MESSAGES[code],
    ...(deadline && { deadline: deadline.toISOString() }),
  },
});

/**
 * Whether `request` may be filed now, and its nSeqEvento: the first of its type is 1, a correction with the same code
 * is 2 (the Id is tpEvento + chNFe + nSeqEvento, so a repeated code needs the next number).
 */
export function checkManifestation(
  document: ManifestedDocument,
  filed: readonly FiledManifestation[],
  request: ManifestationRequest,
  now: Date,
): ManifestationCheck {
  if (document.documentType !== 'nfe')
    return { ok: false, status: 409, detail: { code: 'NFE_ONLY', message: 'Manifestation exists for the NF-e only' } };
  const pending = filed.find((m) => m.status === 'pending');
  if (pending) {
    if (pending.eventType === request.code && (pending.justification ?? null) === request.justification)
      return { ok: 'in-flight', pending };
    return {
      ok: false,
      status: 409,
      detail: { code: 'MANIFESTATION_IN_PROGRESS', message: `Manifestation ${pending.eventType} is still being registered` },
    };
  }
  if (document.situation === 'denied') return refuse('580');
  if (document.situation === 'cancelled' && request.code === AWARENESS) return refuse('650');
  if (document.situation === 'cancelled' && request.code === UNKNOWN_OPERATION) return refuse('651');
  if (!document.authorizedAt)
    return {
      ok: false,
      status: 409,
      detail: { code: 'AUTHORIZATION_UNKNOWN', message: 'The authorization date of this NF-e is not known yet: sync again' },
    };
  const deadlines = deadlinesOf(document.authorizedAt, filed);
  const registered = registeredOf(filed);
  const final = registered.filter((m) => isConclusive(m.eventType));
  const sameType = registered.filter((m) => m.eventType === request.code).length;
  if (request.code === AWARENESS) {
    if (final.length > 0) return refuse('655');
    if (sameType > 0) return refuse('573');
    if (now > deadlines.awareness) return refuse('596', deadlines.awareness, AWARENESS_DAYS);
    return { ok: true, sequence: 1 };
  }
  const days = conclusiveDays(document.authorizedAt);
  if (now > deadlines.conclusive) return refuse('596', deadlines.conclusive, days);
  if (final.length >= MAX_CONCLUSIVE_EVENTS) return refuse('573');
  if (final.length === 1 && deadlines.correction && now > deadlines.correction)
    return refuse('596', deadlines.correction, Math.min(CORRECTION_DAYS, days));
  return { ok: true, sequence: sameType + 1 };
}
