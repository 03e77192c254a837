// NFS-e Nacional emission (POST /nfse) as an exchange strategy: the DPS id names the declaration, so an unknown
// outcome is reconciled with GET /dps/{id}; found, the NFS-e itself is fetched (GET /nfse/{key}) to keep the legal
// document; a 404 sends the stored body again, byte for byte.
import {
  type IssuedNfse,
  type MutualTlsCredentials,
  type NfseCallContext,
  type NfseNacionalClient,
  NFSE_OPERATIONS,
  readDpsRecord,
} from '@talao/authorizer-clients';
import { decodeGzipBase64 } from '@talao/fiscal-xml';
import type { ExchangeStrategy, Reconciled } from '../consult-first.js';
import type { DocumentDecision } from './document-decision.js';

export interface NfseEmissionOptions {
  nfse: NfseNacionalClient;
  caller: { credentials: MutualTlsCredentials; environment: 'homologation' | 'production' };
  /** The signed (and schema-validated) DPS to send when nothing of it was sent before. */
  signedDps(): string;
}

/** Reads of the NFS-e after a DPS lookup found it (one lost answer in ten under the chaos suite leaves 1 in 1,000 without XML). */
const NFSE_FETCH_TRIES = 3;

/** The signed DPS inside a stored emission body (gzip + base64 in JSON). */
export function signedDpsOf(requestBody: string): string {
  const parsed = JSON.parse(requestBody) as { dpsXmlGZipB64?: unknown };
  if (typeof parsed.dpsXmlGZipB64 !== 'string') throw new Error('the stored emission request holds no DPS');
  return decodeGzipBase64(parsed.dpsXmlGZipB64);
}

export function dpsIdOf(signedDps: string): string {
  const match = /<infDPS[^>]*\sId="(DPS[0-9]{42})"/.exec(signedDps);
  if (!match?.[1]) throw new Error('signed DPS without an infDPS Id');
  return match[1];
}

export function nfseEmission(options: NfseEmissionOptions): ExchangeStrategy<DocumentDecision, IssuedNfse> {
  const { nfse } = options;
  const ctx: NfseCallContext = options.caller;

  return {
    operation: NFSE_OPERATIONS.emission,
    prepare: () => nfse.prepareEmission(ctx, { signedDps: options.signedDps() }),
    prepareResend: (storedBody) => nfse.prepareEmissionResend(ctx, storedBody),
    settle(outcome) {
      if (outcome.status === 'unavailable') return { kind: 'unavailable', detail: `${outcome.reason}: ${outcome.detail}` };
      if (outcome.status === 'unknown') return { kind: 'consult' };
      if (outcome.status === 'rejected')
        return { kind: 'decided', decision: { status: 'rejected', statusCode: outcome.code, statusMessage: outcome.message } };
      const { accessKey, nfseXml } = outcome.result;
      return {
        kind: 'decided',
        decision: {
          status: 'issued',
          accessKey,
          protocol: accessKey,
          statusCode: outcome.code,
          statusMessage: outcome.message,
          authorizedXml: nfseXml ?? null,
        },
      };
    },
    async reconcile(storedBody, log): Promise<Reconciled<DocumentDecision>> {
      const dpsId = dpsIdOf(signedDpsOf(storedBody));
      const record = readDpsRecord(await log.call(nfse.prepareDpsLookup(ctx, dpsId)));
      if (record.kind === 'absent') return record;
      if (record.kind === 'inconclusive') return { kind: 'inconclusive', reason: `consult of ${dpsId} inconclusive (${record.detail})` };
      // The lookup answers the key only; the NFS-e itself (the XML the DANFSe is printed from) is a second read, asked
      // again when its answer is lost (a read changes nothing at Sefin). If every try fails the document is still
      // issued: the key is certain.
      let authorizedXml: string | null = null;
      for (let read = 0; read < NFSE_FETCH_TRIES; read++) {
        const fetched = await log.call(nfse.prepareNfseFetch(ctx, record.accessKey));
        if (fetched.status === 'accepted' || fetched.status === 'authorized') {
          authorizedXml = fetched.result.nfseXml ?? null;
          break;
        }
      }
      return {
        kind: 'decided',
        decision: {
          status: 'issued',
          accessKey: record.accessKey,
          protocol: record.accessKey,
          statusCode: record.code,
          statusMessage: record.message,
          authorizedXml,
        },
      };
    },
  };
}
