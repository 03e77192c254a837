// Build → sign → XSD-validate, the only way a document leaves the platform (invariant 6: validated before it
// leaves; a missing schema throws). The signer is passed in (libs/xml-signing's createSigner(cert) fits these
// shapes), so fiscal-xml stays free of key material and of a dependency on the signing library.
import type { DpsDocument, NfeDocument } from '@talao/fiscal-model';
import { buildEnvEvento, type UnsignedNfeEvent } from '../nfe/events/event-message.js';
import { buildInutilizacao, type InutilizacaoInput } from '../nfe/service-requests.js';
import { buildNfe } from '../nfe/document/build-nfe.js';
import { buildDps } from '../nfse/build-dps.js';
import { buildNfseCancellationRequest, type NfseCancellationInput } from '../nfse/cancellation-request.js';
import type { SchemaName } from '../xsd/schema-catalog.js';
import { assertValid } from '../xsd/xsd-validator.js';

/** NF-e family profile: RSA-SHA1, inclusive C14N 1.0, Signature right after the element with Id `id`. */
export interface NfeFamilySigner {
  signNfeFamily(xml: string, id: string): string;
}

/** NFS-e Nacional profile: RSA-SHA256, exclusive C14N. */
export interface NfseSigner {
  signDps(xml: string, id: string): string;
}

export interface SignedNfe {
  readonly xml: string;
  readonly accessKey: string;
  readonly id: string;
}

/** The signed, schema-valid NF-e (throws XmlBuildError on bad input, XsdValidationError if the result is invalid). */
export function buildSignValidateNfe(document: NfeDocument, signer: NfeFamilySigner): SignedNfe {
  const unsigned = buildNfe(document);
  const xml = signer.signNfeFamily(unsigned.xml, unsigned.id);
  assertValid('nfe', xml);
  return { xml, accessKey: unsigned.accessKey, id: unsigned.id };
}

export function buildSignValidateDps(document: DpsDocument, signer: NfseSigner): { xml: string; id: string } {
  const unsigned = buildDps(document);
  const xml = signer.signDps(unsigned.xml, unsigned.id);
  assertValid('dps', xml);
  return { xml, id: unsigned.id };
}

export type EventLotSchema = Extract<SchemaName, 'envEventoCancNFe' | 'envCCe' | 'envConfRecebto'>;

/** Signs each event, wraps them in envEvento and validates the lot against the event family's schema. */
export function signValidateEventLot(
  lotId: string,
  events: readonly UnsignedNfeEvent[],
  signer: NfeFamilySigner,
  schema: EventLotSchema,
): string {
  const lot = buildEnvEvento({ lotId, signedEvents: events.map((e) => signer.signNfeFamily(e.xml, e.id)) });
  assertValid(schema, lot);
  return lot;
}

export function buildSignValidateInutilizacao(input: InutilizacaoInput, signer: NfeFamilySigner): string {
  const unsigned = buildInutilizacao(input);
  const xml = signer.signNfeFamily(unsigned.xml, unsigned.id);
  assertValid('inutNFe', xml);
  return xml;
}

export function buildSignValidateNfseCancellation(input: NfseCancellationInput, signer: NfseSigner): string {
  const unsigned = buildNfseCancellationRequest(input);
  const xml = signer.signDps(unsigned.xml, unsigned.id);
  assertValid('pedRegEvento', xml);
  return xml;
}
