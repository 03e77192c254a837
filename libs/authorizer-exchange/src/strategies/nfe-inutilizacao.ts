// NF-e numbering invalidation (NFeInutilizacao4) as an exchange strategy. SEFAZ has no consult of an inutilização,
// but its Id (cUF, year, CNPJ, model, series, first and last number) names the request: sending the stored bytes again
// is harmless, and SEFAZ answers 563 ("same range already invalidated") when the first one did register. So an
// unknown outcome is reconciled by resending the same bytes, and 563 on our own Id means registered.
import type { SefazPreparedCall } from '@talao/authorizer-clients';
import type { RetInutNFe } from '@talao/fiscal-xml';
import type { ExchangeStrategy } from '../consult-first.js';
import type { EventDecision } from './event-decision.js';
import type { SefazStrategyOptions } from './sefaz-strategy-options.js';

export const NFE_INUTILIZACAO = 'NFeInutilizacao4';
/** "Rejeição: Já existe pedido de inutilização com a mesma faixa de inutilização": this very range is invalidated. */
export const NFE_SAME_RANGE_INVALIDATED = '563';

export interface NfeInutilizacaoOptions extends SefazStrategyOptions {
  /** The signed and schema-validated inutNFe, when nothing of it was sent before. */
  signedInutNFe(): string;
}

export function nfeInutilizacao(
  options: NfeInutilizacaoOptions,
): ExchangeStrategy<EventDecision, RetInutNFe, SefazPreparedCall<RetInutNFe>> {
  const { sefaz } = options;
  const ctx = { ...options.caller, contingency: false };
  return {
    operation: NFE_INUTILIZACAO,
    prepare: () => sefaz.prepareInutilization(ctx, { signedInutNFe: options.signedInutNFe() }),
    prepareResend: (stored) => sefaz.prepareResend(ctx, NFE_INUTILIZACAO, stored),
    settle(outcome) {
      if (outcome.status === 'unavailable') return { kind: 'unavailable', detail: `${outcome.reason}: ${outcome.detail}` };
      if (outcome.status === 'unknown') return { kind: 'consult' };
      const registered = outcome.status !== 'rejected' || outcome.code === NFE_SAME_RANGE_INVALIDATED;
      return {
        kind: 'decided',
        decision: {
          status: registered ? 'registered' : 'rejected',
          protocol: outcome.protocol ?? null,
          statusCode: outcome.code,
          statusMessage: outcome.message,
        },
      };
    },
    // Nothing to ask: "absent" sends the stored bytes again, which either registers them or answers 563.
    reconcile: async () => ({ kind: 'absent' }),
  };
}
