// An NF-e event filed by the issuer (cancellation 110111, correction letter 110110) through NFeRecepcaoEvento4 as an
// exchange strategy. The event's Id (type + key + nSeqEvento) names it at SEFAZ, so an unknown outcome, or a 573
// ("duplicate event") that says the first attempt may have registered, is reconciled with NFeConsultaProtocolo4,
// whose answer lists the registered events of the key: found = registered (never surfaced as a failure), not found =
// the stored envelope again, byte for byte (same event Id).
import { type SefazPreparedCall, issuedInContingency } from '@talao/authorizer-clients';
import type { RetEnvEvento } from '@talao/fiscal-xml';
import type { ExchangeStrategy, Reconciled } from '../consult-first.js';
import type { EventDecision } from './event-decision.js';
import type { SefazStrategyOptions } from './sefaz-strategy-options.js';

export const NFE_EVENT = 'NFeRecepcaoEvento4';
/** "Rejeição: Duplicidade de evento": the event may be the one a lost answer registered — a consult decides. */
export const NFE_DUPLICATE_EVENT = '573';

export interface NfeEventOptions extends SefazStrategyOptions {
  /** The signed and schema-validated envEvento holding the one event, when nothing of it was sent before. */
  envEvento(): string;
  /**
   * A recipient's manifestation (210200/210210/210220/210240): sent to the national environment (AN, cOrgao 91),
   * reconciled with the consult of `consultUf`, the issuer's state, whose record lists the events AN registered.
   */
  national?: { consultUf: string };
}

/** What names an event inside a stored envelope (the key, tpEvento, nSeqEvento), read from the signed bytes. */
export function nfeEventIdentity(envelope: string): { accessKey: string; type: string; sequence: number } {
  const accessKey = /<chNFe>([0-9]{44})<\/chNFe>/.exec(envelope)?.[1];
  const type = /<tpEvento>([0-9]{6})<\/tpEvento>/.exec(envelope)?.[1];
  const sequence = /<nSeqEvento>([0-9]{1,2})<\/nSeqEvento>/.exec(envelope)?.[1];
  if (!accessKey || !type || !sequence) throw new Error('the stored event request names no chNFe, tpEvento and nSeqEvento');
  return { accessKey, type, sequence: Number(sequence) };
}

export function nfeEvent(options: NfeEventOptions): ExchangeStrategy<EventDecision, RetEnvEvento, SefazPreparedCall<RetEnvEvento>> {
  const { sefaz, caller, national } = options;
  const contextFor = (envelope: string) => ({ ...caller, contingency: issuedInContingency(nfeEventIdentity(envelope).accessKey) });
  const consultContextFor = (envelope: string) =>
    national ? { ...caller, uf: national.consultUf, contingency: false } : contextFor(envelope);
  return {
    operation: NFE_EVENT,
    prepare() {
      const envEvento = options.envEvento();
      return sefaz.prepareEvent(contextFor(envEvento), { envEvento, national: national !== undefined });
    },
    prepareResend: (stored) => sefaz.prepareResend(contextFor(stored), NFE_EVENT, stored, national !== undefined),
    settle(outcome) {
      if (outcome.status === 'unavailable') return { kind: 'unavailable', detail: `${outcome.reason}: ${outcome.detail}` };
      if (outcome.status === 'unknown') return { kind: 'consult' };
      if (outcome.status === 'rejected' && outcome.code === NFE_DUPLICATE_EVENT) return { kind: 'consult' };
      const decision: EventDecision = {
        status: outcome.status === 'rejected' ? 'rejected' : 'registered',
        protocol: outcome.protocol ?? null,
        statusCode: outcome.code,
        statusMessage: outcome.message,
      };
      return { kind: 'decided', decision };
    },
    async reconcile(stored, log): Promise<Reconciled<EventDecision>> {
      const { accessKey, type, sequence } = nfeEventIdentity(stored);
      const outcome = await log.call(sefaz.prepareConsult(consultContextFor(stored), accessKey));
      if (outcome.status !== 'accepted' && outcome.status !== 'authorized')
        return { kind: 'inconclusive', reason: `consult of ${accessKey} for event ${type}/${sequence}: ${outcome.status}` };
      const registered = outcome.result.events.find((e) => e.type === type && Number(e.sequence) === sequence);
      if (!registered) return { kind: 'absent' };
      return {
        kind: 'decided',
        decision: {
          status: 'registered',
          protocol: registered.result.protocolNumber ?? null,
          statusCode: registered.result.status.code,
          statusMessage: registered.result.status.message,
        },
      };
    },
  };
}
