// The NF-e event envelope (leiauteEvento 1.00): one `evento` per signature, then `envEvento` carrying signed events
// as strings (signed XML is never re-serialized).
import { isAccessKeyValid } from '@talao/fiscal-model';
import { element, textElement, XmlBuildError } from '../../writer/canonical-xml.js';
import { formatFiscalDateTime } from '../../writer/fiscal-datetime.js';
import { padDigits, requireIntegerInRange, requirePattern } from '../../writer/field-rules.js';
import { type FederalTaxId, type FiscalEnvironment, NFE_NAMESPACE, taxIdElement, tpAmb, withoutXmlDeclaration } from '../nfe-common.js';

export interface NfeEventCommon {
  readonly environment: FiscalEnvironment;
  /** Who authors the event: the issuer (cancellation, CC-e) or the recipient (manifestation). */
  readonly author: FederalTaxId;
  readonly accessKey: string;
  readonly eventAt: Date;
  /** UTC offset of the author's state, e.g. "-03:00" (see stateUtcOffset). */
  readonly utcOffset: string;
}

/** An unsigned `evento` document and the Id its signature must reference. */
export interface UnsignedNfeEvent {
  readonly id: string;
  readonly xml: string;
}

interface EventSpec {
  readonly orgao: string;
  readonly type: string;
  readonly sequence: number;
  readonly maxSequence: number;
  /** Canonical children of detEvento. */
  readonly details: string;
}

/** A 44-character NF-e key whose modulus-11 check digit is right: a typo never reaches the authorizer. */
export function requireValidAccessKey(value: string, field: string): string {
  if (typeof value !== 'string' || !isAccessKeyValid(value)) {
    throw new XmlBuildError(
      `${field}: expected a 44-character NF-e access key with a valid check digit, received ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function buildNfeEvent(common: NfeEventCommon, spec: EventSpec): UnsignedNfeEvent {
  const key = requireValidAccessKey(common.accessKey, 'accessKey');
  requirePattern(spec.orgao, /^[0-9]{2}$/, 'orgao', 'a 2-digit cOrgao');
  const sequence = requireIntegerInRange(spec.sequence, 'sequence', 1, spec.maxSequence);
  const id = `ID${spec.type}${key}${padDigits(sequence, 2, 'sequence')}`;
  const info =
    textElement('cOrgao', spec.orgao) +
    textElement('tpAmb', tpAmb(common.environment)) +
    taxIdElement(common.author, 'author') +
    textElement('chNFe', key) +
    textElement('dhEvento', formatFiscalDateTime(common.eventAt, common.utcOffset)) +
    textElement('tpEvento', spec.type) +
    textElement('nSeqEvento', sequence) +
    textElement('verEvento', '1.00') +
    element('detEvento', spec.details, { versao: '1.00' });
  const xml = element('evento', element('infEvento', info, { Id: id }), { xmlns: NFE_NAMESPACE, versao: '1.00' });
  return { id, xml };
}

export interface EventLot {
  /** idLote: up to 15 digits, chosen by the sender to match the answer. */
  readonly lotId: string;
  /** Signed `evento` documents (1–20), embedded byte for byte. */
  readonly signedEvents: readonly string[];
}

/** envEvento 1.00, ready for NFeRecepcaoEvento4. */
export function buildEnvEvento(lot: EventLot): string {
  requirePattern(lot.lotId, /^[0-9]{1,15}$/, 'lotId', '1–15 digits');
  if (lot.signedEvents.length < 1 || lot.signedEvents.length > 20) {
    throw new XmlBuildError(`signedEvents: expected 1–20 events, received ${lot.signedEvents.length}`);
  }
  let events = '';
  for (const signed of lot.signedEvents) {
    const body = withoutXmlDeclaration(signed);
    if (!body.startsWith('<evento ') || !body.includes('<Signature')) {
      throw new XmlBuildError('signedEvents: each entry must be a signed <evento> document');
    }
    events += body;
  }
  return element('envEvento', textElement('idLote', lot.lotId) + events, { xmlns: NFE_NAMESPACE, versao: '1.00' });
}
