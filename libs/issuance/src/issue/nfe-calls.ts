// NF-e exchanges of the worker: authorization (NFeAutorizacao4) and the consult that reconciles an unknown outcome
// (NFeConsultaProtocolo4), each recorded as a submission.
import { type AuthorizationResult, type AuthorizerOutcome, buildSoapEnvelope, type SefazCallContext, type SefazClient } from '@talao/authorizer-clients';
import { buildConsSitNFe, buildEnviNFe, buildNfeProc, type RetConsSitNFe } from '@talao/fiscal-xml';
import type { SubmissionsPort } from '../ports.js';
import { recordedCall } from './recorded-call.js';

export const NFE_AUTHORIZATION = 'NFeAutorizacao4';
export const NFE_CONSULT = 'NFeConsultaProtocolo4';

type Owner = { invoiceId: string; companyId: string };

/** tpEmis is the 35th character of the key: a document issued through SVC is consulted at the SVC. */
export function issuedInContingency(accessKey: string): boolean {
  const tpEmis = accessKey.charAt(34);
  return tpEmis === '6' || tpEmis === '7';
}

export function authorizeNfe(sefaz: SefazClient, submissions: SubmissionsPort, owner: Owner, ctx: SefazCallContext, signedNfe: string): Promise<AuthorizerOutcome<AuthorizationResult>> {
  const endpoint = sefaz.endpoint(ctx, NFE_AUTHORIZATION);
  // One NF-e per lot; the lot id only has to be 1–15 digits.
  const lotId = String(Date.now()).slice(-15);
  const requestBody = buildSoapEnvelope(endpoint, buildEnviNFe({ lotId, signedNfe }));
  return recordedCall(submissions, owner, { operation: NFE_AUTHORIZATION, endpoint: endpoint.url, requestBody }, () => sefaz.authorize(ctx, { signedNfe, lotId }));
}

export function consultNfe(sefaz: SefazClient, submissions: SubmissionsPort, owner: Owner, ctx: SefazCallContext, accessKey: string): Promise<AuthorizerOutcome<RetConsSitNFe>> {
  const endpoint = sefaz.endpoint(ctx, NFE_CONSULT);
  const requestBody = buildSoapEnvelope(endpoint, buildConsSitNFe({ environment: ctx.environment, accessKey }));
  return recordedCall(submissions, owner, { operation: NFE_CONSULT, endpoint: endpoint.url, requestBody }, () => sefaz.consultProtocol(ctx, accessKey));
}

/** The signed NF-e inside a stored authorization envelope, byte for byte (it was embedded as a string, invariant 5). */
export function signedNfeOf(envelope: string): string {
  const start = envelope.indexOf('<NFe ');
  const end = envelope.lastIndexOf('</NFe>');
  if (start < 0 || end < start) throw new Error('the stored authorization request holds no NFe');
  return envelope.slice(start, end + '</NFe>'.length);
}

/** nfeProc 4.00 (the legal distribution file) when the authorizer's protNFe came back. */
export function nfeProc(signedNfe: string, protocolXml: string | undefined): string | null {
  return protocolXml ? buildNfeProc({ signedNfe, protocolXml }) : null;
}
