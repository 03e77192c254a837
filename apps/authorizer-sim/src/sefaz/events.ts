import { attributeOf, childOf, parseXmlTree, rootOf, textOf, validateXml } from '@talao/fiscal-xml';
import { cstatMessage } from '../responses/cstat.js';
import { procEventoNFe, resEvento, retEnvEvento, retEvento } from '../responses/event-responses.js';
import { nfeProc } from './document-views.js';
import { type StoredNfe } from '../state/sefaz-state.js';
import {
  AWARENESS,
  CANCELLATION,
  CONFIRMATION,
  OPERATION_NOT_PERFORMED,
  CORRECTION_LETTER,
  EVENT_DESCRIPTIONS,
  eventRejection,
  MANIFESTATIONS,
} from './event-rules.js';
import { type SefazCall, type SimServices, statesServedBy } from './sefaz-context.js';
import { checkNfeFamilySignature, sameCompany } from './signature-checks.js';

const NATIONAL = '91';

function schemaFor(message: string): 'envEventoCancNFe' | 'envCCe' | 'envConfRecebto' | 'envEvento' {
  const type = /<tpEvento>(\d{6})<\/tpEvento>/.exec(message)?.[1];
  if (type === CANCELLATION) return 'envEventoCancNFe';
  if (type === CORRECTION_LETTER) return 'envCCe';
  if (type && MANIFESTATIONS.has(type)) return 'envConfRecebto';
  return 'envEvento';
}

/** Each `<evento>` of the lot, byte for byte (its signature is verified on these bytes). */
function rawEvents(message: string): string[] {
  return [...message.matchAll(/<evento[\s>][\s\S]*?<\/evento>/g)].map((m) => m[0]);
}

/** NFeRecepcaoEvento4 (state: cancellation, CC-e; AN: manifestation): 128 with one retEvento per event. */
export function handleEvents(call: SefazCall, services: SimServices, message: string): string {
  const orgao = call.authorizer === 'AN' ? NATIONAL : (statesServedBy(call.authorizer)[0] ?? NATIONAL);
  const idLote = /<idLote>(\d{1,15})<\/idLote>/.exec(message)?.[1] ?? '0';
  const lot = (cStat: string, events: string[] = []) =>
    retEnvEvento({ idLote, tpAmb: call.tpAmb, cOrgao: orgao, cStat, xMotivo: cstatMessage(cStat) }, events);
  if (!validateXml(schemaFor(message), message).valid) return lot('215');
  const tree = rootOf(parseXmlTree(message)).node;
  const firstInfo = childOf(childOf(tree, 'evento') ?? {}, 'infEvento') ?? {};
  if (textOf(firstInfo, 'tpAmb') !== call.tpAmb) return lot('252');
  return lot(
    '128',
    rawEvents(message).map((raw) => registerEvent(call, services, raw)),
  );
}

function registerEvent(call: SefazCall, services: SimServices, raw: string): string {
  const { clock, state } = services;
  const now = clock.now();
  const info = childOf(rootOf(parseXmlTree(raw)).node, 'infEvento') ?? {};
  const id = attributeOf(info, 'Id') ?? '';
  const key = textOf(info, 'chNFe') ?? '';
  const tpEvento = textOf(info, 'tpEvento') ?? '';
  const nSeqEvento = Number(textOf(info, 'nSeqEvento'));
  const cOrgao = textOf(info, 'cOrgao') ?? '';
  const authorTaxId = textOf(info, 'CNPJ') ?? textOf(info, 'CPF') ?? '';
  const answer = (cStat: string, nProt?: string) =>
    retEvento({
      tpAmb: call.tpAmb,
      cOrgao,
      cStat,
      xMotivo: cstatMessage(cStat),
      chNFe: key,
      tpEvento,
      nSeqEvento,
      xEvento: nProt ? EVENT_DESCRIPTIONS[tpEvento] : undefined,
      dhRegEvento: clock.stamp(now),
      nProt,
    });

  if (id !== `ID${tpEvento}${key}${String(nSeqEvento).padStart(2, '0')}`) return answer('572');
  const national = MANIFESTATIONS.has(tpEvento);
  if (national !== (call.authorizer === 'AN') || (national ? cOrgao !== NATIONAL : !statesServedBy(call.authorizer).includes(cOrgao)))
    return answer('250');
  const signature = checkNfeFamilySignature(raw, id, services.trustedCa, now);
  if (!signature.ok) return answer(signature.cStat);
  if (!sameCompany(authorTaxId, signature.facts.signerTaxId)) return answer('213');
  const document = state.findByKey(key);
  if (!document || document.tpAmb !== call.tpAmb) return answer('494');
  const detEvento = childOf(info, 'detEvento') ?? {};
  const eventAt = new Date(textOf(info, 'dhEvento') ?? '');
  const rejection = eventRejection(document, { tpEvento, nSeqEvento, authorTaxId, protocol: textOf(detEvento, 'nProt'), eventAt }, now);
  if (rejection) return answer(rejection);

  const nProt = state.nextProtocol(call.tpAmb, document.cUF, now);
  const registration = answer('135', nProt);
  document.events.push({ tpEvento, nSeqEvento, nProt, registeredAt: now, authorTaxId, procEventoXml: procEventoNFe(raw, registration) });
  if (tpEvento === CANCELLATION) document.cancelled = true;
  feedParties(services, document, {
    tpEvento,
    nSeqEvento,
    nProt,
    authorTaxId,
    cOrgao,
    dhEvento: textOf(info, 'dhEvento') ?? clock.stamp(now),
  });
  return registration;
}

/**
 * DistDFe as the real AN does it: the recipient sees an issuer's events as resEvento, and the full procNFe once it
 * has manifested awareness, confirmation or operation-not-performed (never after unknown operation).
 */
function feedParties(
  services: SimServices,
  document: StoredNfe,
  e: { tpEvento: string; nSeqEvento: number; nProt: string; authorTaxId: string; cOrgao: string; dhEvento: string },
): void {
  const { feed, clock } = services;
  if (!document.recipientTaxId) return;
  if (e.tpEvento === AWARENESS || e.tpEvento === CONFIRMATION || e.tpEvento === OPERATION_NOT_PERFORMED) {
    feed.add(document.recipientTaxId, 'procNFe_v4.00.xsd', nfeProc(document));
    return;
  }
  if (e.authorTaxId === document.issuerTaxId) {
    feed.add(
      document.recipientTaxId,
      'resEvento_v1.01.xsd',
      resEvento({
        ...e,
        chNFe: document.key,
        xEvento: EVENT_DESCRIPTIONS[e.tpEvento] ?? e.tpEvento,
        dhRecbto: clock.stamp(),
        nProt: e.nProt,
      }),
    );
  }
}
