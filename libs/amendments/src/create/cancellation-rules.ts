// The rules of a cancellation checked before anything reaches the authorizer, as data: the reason's length per
// document type and the NF-e window per state (counted from the authorization).
import type { DocumentTypeName } from '@talao/persistence';

/** NF-e xJust and NFS-e xMotivo (e101101) are both 15–255 characters in their layouts. */
export const CANCEL_REASON_LENGTH: Readonly<Record<DocumentTypeName, { min: number; max: number }>> = {
  nfe: { min: 15, max: 255 },
  nfse: { min: 15, max: 255 },
};

/**
 * Hours after the authorization during which an NF-e may be cancelled, by the issuer's state (Ajuste SINIEF 13/10,
 * applied by every authorizer as 24 h today). A state that grants another window gets its line here; the default
 * applies to the rest. The NFS-e Nacional sets no national window: the municipality's rule is the authorizer's to
 * apply, so an NFS-e cancellation is checked by Sefin only.
 */
export const NFE_CANCELLATION_WINDOW_HOURS: { readonly default: number; readonly byState: Readonly<Record<string, number>> } = {
  default: 24,
  byState: {},
};

/**
 * The authorizer's own answer to a late cancellation (the official cStat table, NFeRecepcaoEvento4), given locally
 * so the client sees the same code and message whether the gateway or SEFAZ refused.
 */
export const LATE_CANCELLATION = {
  code: '501',
  message: 'Rejeição: Pedido de Cancelamento intempestivo (NF-e autorizada a mais de 7 dias)',
} as const;

export function nfeCancellationWindowMs(state: string): number {
  return (NFE_CANCELLATION_WINDOW_HOURS.byState[state] ?? NFE_CANCELLATION_WINDOW_HOURS.default) * 3_600_000;
}

/** True when an NF-e authorized at `authorizedAt` in `state` may still be cancelled at `now`. */
export function withinCancellationWindow(state: string, authorizedAt: Date, now: Date): boolean {
  return now.getTime() - authorizedAt.getTime() <= nfeCancellationWindowMs(state);
}
