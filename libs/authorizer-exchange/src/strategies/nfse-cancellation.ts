// NFS-e Nacional cancellation (POST /nfse/{key}/eventos, e101101) as an exchange strategy. The event is named by the
// key, its type and sequence 1, so a lost answer is reconciled with GET /nfse/{key}/eventos/101101/1: found =
// registered, 404 = the stored body again, byte for byte. "Already cancelled" after a lost answer is the same
// question, so it is reconciled too instead of being surfaced as a refusal.
import { type MutualTlsCredentials, type NfseCallContext, type NfseNacionalClient, NFSE_OPERATIONS } from '@talao/authorizer-clients';
import { decodeGzipBase64 } from '@talao/fiscal-xml';
import type { ExchangeStrategy, Reconciled } from '../consult-first.js';
import type { EventDecision } from './event-decision.js';

export const NFSE_CANCELLATION_EVENT = '101101';

export interface NfseCancellationOptions {
  nfse: NfseNacionalClient;
  caller: { credentials: MutualTlsCredentials; environment: 'homologation' | 'production' };
  accessKey: string;
  /** The signed and schema-validated pedRegEvento, when nothing of it was sent before. */
  signedRequest(): string;
  /** The national API's code for "this NFS-e is already cancelled" (a consult decides whether it was this request). */
  alreadyCancelledCodes?: ReadonlySet<string>;
}

/** The signed pedRegEvento inside a stored request body (gzip + base64 in JSON). */
export function signedEventRequestOf(requestBody: string): string {
  const parsed = JSON.parse(requestBody) as { pedidoRegistroEventoXmlGZipB64?: unknown };
  if (typeof parsed.pedidoRegistroEventoXmlGZipB64 !== 'string') throw new Error('the stored event request holds no pedRegEvento');
  return decodeGzipBase64(parsed.pedidoRegistroEventoXmlGZipB64);
}

export function nfseCancellation(options: NfseCancellationOptions): ExchangeStrategy<EventDecision, { eventXml?: string }> {
  const { nfse, accessKey } = options;
  const ctx: NfseCallContext = options.caller;
  return {
    operation: NFSE_OPERATIONS.event,
    prepare: () => nfse.prepareEvent(ctx, { accessKey, signedEventRequest: options.signedRequest() }),
    prepareResend: (stored) => nfse.prepareEventResend(ctx, accessKey, stored),
    settle(outcome) {
      if (outcome.status === 'unavailable') return { kind: 'unavailable', detail: `${outcome.reason}: ${outcome.detail}` };
      if (outcome.status === 'unknown') return { kind: 'consult' };
      if (outcome.status === 'rejected') {
        if (options.alreadyCancelledCodes?.has(outcome.code)) return { kind: 'consult' };
        return {
          kind: 'decided',
          decision: { status: 'rejected', protocol: null, statusCode: outcome.code, statusMessage: outcome.message },
        };
      }
      return {
        kind: 'decided',
        decision: { status: 'registered', protocol: outcome.protocol ?? null, statusCode: outcome.code, statusMessage: outcome.message },
      };
    },
    async reconcile(_stored, log): Promise<Reconciled<EventDecision>> {
      const outcome = await log.call(nfse.prepareEventLookup(ctx, { accessKey, eventType: NFSE_CANCELLATION_EVENT, sequence: 1 }));
      if (outcome.status === 'accepted' || outcome.status === 'authorized')
        return {
          kind: 'decided',
          decision: { status: 'registered', protocol: outcome.protocol ?? null, statusCode: outcome.code, statusMessage: outcome.message },
        };
      if (outcome.status === 'rejected' && outcome.exchanges.at(-1)?.response?.status === 404) return { kind: 'absent' };
      return { kind: 'inconclusive', reason: `lookup of the cancellation of ${accessKey}: ${outcome.status}` };
    },
  };
}
