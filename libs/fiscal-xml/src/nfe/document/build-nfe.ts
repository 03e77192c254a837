// The NF-e 4.00 document: NFe/infNFe (Id "NFe" + access key, versao 4.00), unsigned and canonical by construction.
// The computed NfeDocument (fiscal-model) already holds every final value; this only serializes it, in XSD order.
import { isAccessKeyValid, type NfeDocument } from '@talao/fiscal-model';
import { element, XmlBuildError } from '../../writer/canonical-xml.js';
import { NFE_NAMESPACE } from '../nfe-common.js';
import { infAdicXml, infRespTecXml, pagXml, totalXml, transpXml } from './nfe-closing.js';
import { itemXml } from './nfe-item.js';
import { destXml, emitXml, ideXml } from './nfe-parties.js';

export interface UnsignedNfe {
  /** infNFe/@Id, the reference of the signature. */
  readonly id: string;
  readonly accessKey: string;
  readonly xml: string;
}

// The access key repeats ide fields; a disagreement would be rejected by the authorizer, so refuse it here.
function assertKeyMatchesIde(doc: NfeDocument): void {
  const key = doc.accessKey;
  if (!isAccessKeyValid(key)) throw new XmlBuildError(`accessKey: ${JSON.stringify(key)} is not a valid 44-character key`);
  const ide = doc.ide;
  const expected: [string, string, string][] = [
    ['cUF', key.slice(0, 2), ide.cUF],
    ['mod', key.slice(20, 22), ide.mod],
    ['serie', String(Number(key.slice(22, 25))), ide.serie],
    ['nNF', String(Number(key.slice(25, 34))), ide.nNF],
    ['tpEmis', key.slice(34, 35), ide.tpEmis],
    ['cNF', key.slice(35, 43), ide.cNF],
    ['cDV', key.slice(43), ide.cDV],
  ];
  for (const [field, fromKey, value] of expected) {
    if (fromKey !== value) throw new XmlBuildError(`ide.${field}: ${JSON.stringify(value)} disagrees with the access key (${fromKey})`);
  }
}

export function buildNfe(doc: NfeDocument): UnsignedNfe {
  assertKeyMatchesIde(doc);
  if (doc.det.length < 1 || doc.det.length > 990) throw new XmlBuildError(`det: expected 1–990 items, received ${doc.det.length}`);
  let items = '';
  for (let i = 0; i < doc.det.length; i++) items += itemXml(doc.det[i] as NfeDocument['det'][number], i + 1);
  const id = `NFe${doc.accessKey}`;
  const info =
    element('ide', ideXml(doc.ide)) +
    element('emit', emitXml(doc.emit)) +
    element('dest', destXml(doc.dest)) +
    items +
    totalXml(doc.total) +
    transpXml(doc.transp) +
    pagXml(doc.pag) +
    infAdicXml(doc.infAdic) +
    infRespTecXml(doc.infRespTec);
  const xml = element('NFe', element('infNFe', info, { Id: id, versao: '4.00' }), { xmlns: NFE_NAMESPACE });
  return { id, accessKey: doc.accessKey, xml };
}
