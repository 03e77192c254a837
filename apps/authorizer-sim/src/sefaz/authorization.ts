import { isAccessKeyValid } from '@talao/fiscal-model';
import { type XmlDocument } from 'libxml2-wasm';
import { attributeOf, childOf, parseXmlTree, rawElement, rootOf, textOf, validateXmlDocument, type XmlObject } from '@talao/fiscal-xml';
import { cstatMessage } from '../responses/cstat.js';
import { type AnswerHeader, protNFe, retEnviNFe } from '../responses/nfe-responses.js';
import { ownBytes, ownCopy } from '../state/own-memory.js';
import { type StoredNfe } from '../state/sefaz-state.js';
import { checkCfop, checkTotals } from './nfe-totals.js';
import { checkNfeDocument } from './nfe-document-checks.js';
import { summaryOf } from './document-views.js';
import { type SefazCall, type SimServices, answerStateCode } from './sefaz-context.js';
import { nfeOfValidatedLot } from './nfe-in-lot.js';
import { readCanonicalTree } from './canonical-tree.js';
import { checkNfeFamilySignature, sameCompany, type SignedXml } from './signature-checks.js';

/** The real services refuse lots above 500 KB (214). */
const MAX_LOT_BYTES = 500 * 1024;

/** NFeAutorizacao4: validates the lot and its one NF-e, registers it, answers 104 + protNFe (or 103 + receipt). */
export function handleAuthorization(call: SefazCall, services: SimServices, message: string, forceAsync: boolean): string {
  const { clock, state, faults } = services;
  const now = clock.now();
  const lotHeader = (cStat: string, cUF: string, fill: { nRec?: string; chNFe?: string } = {}): AnswerHeader => ({
    tpAmb: call.tpAmb,
    cStat,
    xMotivo: cstatMessage(cStat, fill),
    cUF,
    dhRecbto: clock.stamp(now),
  });
  const cUF = answerStateCode(call.authorizer, message);
  if (Buffer.byteLength(message) > MAX_LOT_BYTES) return retEnviNFe(lotHeader('214', cUF));
  const validated = validateXmlDocument('enviNFe', message);
  if (!validated.valid) return retEnviNFe(lotHeader('225', cUF));
  let checked: string | CheckedLot;
  try {
    checked = readAndCheckLot(call, services, message, validated.document, now);
  } finally {
    validated.document.dispose();
  }
  if (typeof checked === 'string') return retEnviNFe(lotHeader(checked, cUF));
  const { lot, infNFe, ide, id, signedNfe, rejection } = checked;
  const key = id.slice(3);
  const protocolFor = (cStat: string, fill: { nRec?: string; chNFe?: string } = {}, extra: { nProt?: string; digVal?: string } = {}) =>
    protNFe({
      tpAmb: call.tpAmb,
      chNFe: isAccessKeyValid(key) ? key : '0'.repeat(44),
      dhRecbto: clock.stamp(now),
      cStat,
      xMotivo: cstatMessage(cStat, fill),
      ...extra,
    });
  if (typeof rejection === 'string') return retEnviNFe(lotHeader('104', cUF), { protNFe: protocolFor(rejection) });
  const { digestValue } = rejection;

  const emit = childOf(infNFe, 'emit') ?? {};
  const issuer = textOf(emit, 'CNPJ') ?? textOf(emit, 'CPF') ?? '';
  const model = textOf(ide, 'mod') ?? '';
  const series = Number(textOf(ide, 'serie'));
  const number = Number(textOf(ide, 'nNF'));
  const existing = state.findByKey(key);
  if (existing) return retEnviNFe(lotHeader('104', cUF), { protNFe: protocolFor('204', { nRec: existing.nProt }) });
  const sameNumber = state.findByNumber(call.tpAmb, model, cUF, issuer, series, number);
  if (sameNumber)
    return retEnviNFe(lotHeader('104', cUF), { protNFe: protocolFor('539', { chNFe: sameNumber.key, nRec: sameNumber.nProt }) });
  if (state.findInutilized(call.tpAmb, cUF, issuer, model, series, number))
    return retEnviNFe(lotHeader('104', cUF), { protNFe: protocolFor('206') });

  const forced = faults.takeRejection(call.authorizer);
  if (forced) return retEnviNFe(lotHeader('104', cUF), { protNFe: protocolFor(forced) });

  const nProt = state.nextProtocol(call.tpAmb, cUF, now);
  const protocol = protocolFor('100', {}, { nProt, digVal: digestValue });
  const stored = storedDocument(infNFe, { key, cUF, model, issuer, series, number, nProt, now, signedNfe, protocol, tpAmb: call.tpAmb });
  state.store(stored);
  // The recipient learns of it through DistDFe, first as a summary (the full document after its manifestation).
  if (stored.recipientTaxId) services.feed.add(stored.recipientTaxId, 'resNFe_v1.01.xsd', summaryOf(stored, clock.stamp(now)));

  if (forceAsync || textOf(lot, 'indSinc') === '0') {
    const nRec = state.nextReceiptNumber(cUF);
    state.addReceipt({ nRec, tpAmb: call.tpAmb, cUF, protNFe: protocol, readyAt: now.getTime() + 500 });
    return retEnviNFe(lotHeader('103', cUF), { nRec, tMed: 1 });
  }
  return retEnviNFe(lotHeader('104', cUF), { protNFe: protocol });
}

interface CheckedLot {
  lot: XmlObject;
  infNFe: XmlObject;
  ide: XmlObject;
  id: string;
  /** The NFe exactly as received. */
  signedNfe: string;
  rejection: string | { digestValue: string };
}

/**
 * Reads the lot that passed the XSD and checks its NF-e (firstRejection), or answers the lot-level cStat (225, 252).
 * The signature is verified on the NFe's text as written when it is in canonical form; otherwise on `document`, the
 * lot as the XSD validation parsed it, when that is the same as verifying the NFe's text alone (nfeOfValidatedLot);
 * otherwise on that text, parsed on its own.
 */
function readAndCheckLot(call: SefazCall, services: SimServices, message: string, document: XmlDocument, now: Date): string | CheckedLot {
  // The message is under MAX_LOT_BYTES, far below parseXmlTree's size bound: only the form decides who reads it.
  const lot = rootOf(readCanonicalTree(message) ?? parseXmlTree(message)).node;
  const nfe = childOf(lot, 'NFe');
  const infNFe = nfe && childOf(nfe, 'infNFe');
  const signedNfe = rawElement(message, 'NFe');
  if (!infNFe || !signedNfe) return '225';
  const ide = childOf(infNFe, 'ide') ?? {};
  if (textOf(ide, 'tpAmb') !== call.tpAmb) return '252';
  const id = attributeOf(infNFe, 'Id') ?? '';
  const signed: SignedXml = {
    text: signedNfe,
    parsed: () => {
      const element = nfeOfValidatedLot(document, message);
      return element && { document, element };
    },
  };
  return { lot, infNFe, ide, id, signedNfe, rejection: firstRejection(call, services, infNFe, signed, id, now) };
}

/** The NF-e rules in SEFAZ's order; the first failure's cStat, or the signature facts when all pass. */
function firstRejection(
  call: SefazCall,
  services: SimServices,
  infNFe: XmlObject,
  signedNfe: SignedXml,
  id: string,
  now: Date,
): string | { digestValue: string } {
  const documentRejection = checkNfeDocument(call, infNFe, id, now);
  if (documentRejection) return documentRejection;
  const signature = checkNfeFamilySignature(signedNfe, id, services.trustedCa, now);
  if (!signature.ok) return signature.cStat;
  const emit = childOf(infNFe, 'emit') ?? {};
  if (!sameCompany(textOf(emit, 'CNPJ') ?? textOf(emit, 'CPF'), signature.facts.signerTaxId)) return '213';
  return checkCfop(infNFe) ?? checkTotals(infNFe) ?? { digestValue: signature.facts.digestValue };
}

/** The document kept for consults, events and DistDFe; every field owns its memory (state/own-memory.ts says why). */
export function storedDocument(
  infNFe: XmlObject,
  f: {
    key: string;
    cUF: string;
    model: string;
    issuer: string;
    series: number;
    number: number;
    nProt: string;
    now: Date;
    signedNfe: string;
    protocol: string;
    tpAmb: '1' | '2';
  },
): StoredNfe {
  const ide = childOf(infNFe, 'ide') ?? {};
  const emit = childOf(infNFe, 'emit') ?? {};
  const dest = childOf(infNFe, 'dest');
  const recipientTaxId = dest ? (textOf(dest, 'CNPJ') ?? textOf(dest, 'CPF')) : undefined;
  return {
    key: ownCopy(f.key),
    tpAmb: f.tpAmb,
    cUF: ownCopy(f.cUF),
    model: ownCopy(f.model),
    issuerTaxId: ownCopy(f.issuer),
    recipientTaxId: recipientTaxId === undefined ? undefined : ownCopy(recipientTaxId),
    series: f.series,
    number: f.number,
    issuedAt: new Date(textOf(ide, 'dhEmi') ?? f.now.toISOString()),
    issuedAtText: ownCopy(textOf(ide, 'dhEmi') ?? ''),
    authorizedAt: f.now,
    nProt: f.nProt,
    signedNfe: ownBytes(f.signedNfe),
    protNFe: ownCopy(f.protocol),
    cancelled: false,
    events: [],
    totalValue: ownCopy(textOf(childOf(childOf(infNFe, 'total') ?? {}, 'ICMSTot') ?? {}, 'vNF') ?? '0.00'),
    issuerName: ownCopy(textOf(emit, 'xNome') ?? ''),
    issuerStateRegistration: ownCopy(textOf(emit, 'IE') ?? ''),
  };
}
