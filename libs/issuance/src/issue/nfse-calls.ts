// NFS-e Nacional exchanges of the worker: POST /nfse with the DPS, and GET /dps/{id} to reconcile an unknown outcome.
import { type AuthorizerOutcome, type IssuedNfse, type NfseCallContext, type NfseNacionalClient } from '@talao/authorizer-clients';
import { decodeGzipBase64, encodeGzipBase64 } from '@talao/fiscal-xml';
import type { SubmissionsPort } from '../ports.js';
import { recordedCall } from './recorded-call.js';

export const NFSE_EMISSION = 'POST /nfse';
export const NFSE_CONSULT = 'GET /dps';
export const NFSE_FETCH = 'GET /nfse';

type Owner = { invoiceId: string; companyId: string };

export function emitDps(client: NfseNacionalClient, submissions: SubmissionsPort, owner: Owner, ctx: NfseCallContext, signedDps: string): Promise<AuthorizerOutcome<IssuedNfse>> {
  // The client's own body (gzip is deterministic in Node: no timestamp in the header).
  const requestBody = JSON.stringify({ dpsXmlGZipB64: encodeGzipBase64(signedDps) });
  const endpoint = `${client.baseUrls(ctx.environment).sefin}/nfse`;
  return recordedCall(submissions, owner, { operation: NFSE_EMISSION, endpoint, requestBody }, () => client.emitDps(ctx, { signedDps }));
}

export function consultDps(client: NfseNacionalClient, submissions: SubmissionsPort, owner: Owner, ctx: NfseCallContext, dpsId: string) {
  const endpoint = `${client.baseUrls(ctx.environment).sefin}/dps/${dpsId}`;
  return recordedCall(submissions, owner, { operation: NFSE_CONSULT, endpoint, requestBody: '' }, () => client.findDps(ctx, dpsId));
}

/** A 404 from GET /dps means the national environment has no NFS-e for that DPS: safe to send it again. */
export function dpsNotFound(outcome: AuthorizerOutcome<unknown>): boolean {
  return outcome.status === 'rejected' && outcome.exchanges.at(-1)?.response?.status === 404;
}

export function signedDpsOf(requestBody: string): string {
  const parsed = JSON.parse(requestBody) as { dpsXmlGZipB64?: unknown };
  if (typeof parsed.dpsXmlGZipB64 !== 'string') throw new Error('the stored emission request holds no DPS');
  return decodeGzipBase64(parsed.dpsXmlGZipB64);
}

/** GET /nfse/{key}: the NFS-e XML, when a consult found the DPS issued (the legal document is kept on the invoice). */
export function fetchNfse(client: NfseNacionalClient, submissions: SubmissionsPort, owner: Owner, ctx: NfseCallContext, accessKey: string) {
  const endpoint = `${client.baseUrls(ctx.environment).sefin}/nfse/${accessKey}`;
  return recordedCall(submissions, owner, { operation: NFSE_FETCH, endpoint, requestBody: '' }, () => client.getNfse(ctx, accessKey));
}
