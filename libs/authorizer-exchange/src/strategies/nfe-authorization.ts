// NF-e authorization (NFeAutorizacao4) as an exchange strategy: one signed NF-e per lot; an unknown outcome or a 204
// ("this key is already held") is reconciled with NFeConsultaProtocolo4 by the access key — at the SVC when the key's
// tpEmis is 6 or 7 — and "not on record" (217) sends the stored envelope again, byte for byte.
import {
  alreadyHeld,
  type AuthorizationResult,
  issuedInContingency,
  type MutualTlsCredentials,
  readNfeRecord,
  type SefazClient,
  type SefazCallContext,
  type SefazPreparedCall,
} from '@talao/authorizer-clients';
import { buildNfeProc } from '@talao/fiscal-xml';
import type { ExchangeStrategy, Reconciled } from '../consult-first.js';
import type { DocumentDecision } from './document-decision.js';

export const NFE_AUTHORIZATION = 'NFeAutorizacao4';

export interface NfeAuthorizationOptions {
  sefaz: SefazClient;
  /** The company's certificate, environment (from the credential) and state. */
  caller: { credentials: MutualTlsCredentials; environment: 'homologation' | 'production'; uf: string };
  /** The signed (and schema-validated) NF-e to send when nothing of it was sent before. */
  signedNfe(): string;
  /**
   * SEFAZ is unavailable (`authorizer` names it): switch to SVC contingency, the next `signedNfe()` being the new
   * document. Resolves false when contingency does not apply.
   */
  enterContingency?(authorizer: string, detail: string): Promise<boolean>;
}

/** The signed NF-e inside a stored authorization envelope, byte for byte (it was embedded as a string, invariant 5). */
export function signedNfeOf(envelope: string): string {
  const start = envelope.indexOf('<NFe ');
  const end = envelope.lastIndexOf('</NFe>');
  if (start < 0 || end < start) throw new Error('the stored authorization request holds no NFe');
  return envelope.slice(start, end + '</NFe>'.length);
}

export function accessKeyOf(signedNfe: string): string {
  const match = /<infNFe[^>]*\sId="NFe([0-9A-Z]{44})"/.exec(signedNfe);
  if (!match?.[1]) throw new Error('signed NF-e without an infNFe Id');
  return match[1];
}

/** nfeProc 4.00 (the legal distribution file) when the authorizer's protNFe came back. */
function nfeProc(signedNfe: string, protocolXml: string | undefined): string | null {
  return protocolXml ? buildNfeProc({ signedNfe, protocolXml }) : null;
}

export function nfeAuthorization(
  options: NfeAuthorizationOptions,
): ExchangeStrategy<DocumentDecision, AuthorizationResult, SefazPreparedCall<AuthorizationResult>> {
  const { sefaz, caller } = options;
  const contextFor = (accessKey: string): SefazCallContext => ({ ...caller, contingency: issuedInContingency(accessKey) });
  // A lot holds one NF-e; its id only has to be 1–15 digits.
  const lotId = () => String(Date.now()).slice(-15);

  return {
    operation: NFE_AUTHORIZATION,
    prepare() {
      const signedNfe = options.signedNfe();
      return sefaz.prepareAuthorization(contextFor(accessKeyOf(signedNfe)), { signedNfe, lotId: lotId() });
    },
    prepareResend(storedEnvelope) {
      return sefaz.prepareResend(contextFor(accessKeyOf(signedNfeOf(storedEnvelope))), 'NFeAutorizacao4', storedEnvelope);
    },
    settle(outcome, call) {
      if (outcome.status === 'unavailable') return { kind: 'unavailable', detail: `${outcome.reason}: ${outcome.detail}` };
      if (outcome.status === 'unknown' || alreadyHeld(outcome)) return { kind: 'consult' };
      const signedNfe = signedNfeOf(call.body);
      const base = {
        accessKey: accessKeyOf(signedNfe),
        protocol: outcome.protocol ?? null,
        statusCode: outcome.code,
        statusMessage: outcome.message,
      };
      if (outcome.status === 'rejected') return { kind: 'decided', decision: { status: 'rejected', ...base } };
      return {
        kind: 'decided',
        decision: { status: 'issued', ...base, authorizedXml: nfeProc(signedNfe, outcome.result.protocol?.rawXml) },
      };
    },
    async reconcile(storedEnvelope, log): Promise<Reconciled<DocumentDecision>> {
      const signedNfe = signedNfeOf(storedEnvelope);
      const accessKey = accessKeyOf(signedNfe);
      const record = readNfeRecord(await log.call(sefaz.prepareConsult(contextFor(accessKey), accessKey)));
      if (record.kind === 'absent') return record;
      if (record.kind === 'inconclusive')
        return { kind: 'inconclusive', reason: `consult of ${accessKey} inconclusive (${record.detail})` };
      const base = { accessKey, protocol: record.protocol, statusCode: record.code, statusMessage: record.message };
      if (record.state === 'authorized')
        return { kind: 'decided', decision: { status: 'issued', ...base, authorizedXml: nfeProc(signedNfe, record.protocolXml) } };
      return { kind: 'decided', decision: { status: record.state === 'denied' ? 'rejected' : 'cancelled', ...base } };
    },
    async reroute(detail, call) {
      return options.enterContingency ? options.enterContingency(call.endpoint.authorizer, detail) : false;
    },
  };
}
