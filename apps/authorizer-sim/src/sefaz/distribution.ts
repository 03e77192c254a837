import { childOf, parseXmlTree, rootOf, textOf, validateXml } from '@talao/fiscal-xml';
import { cstatMessage } from '../responses/cstat.js';
import { retDistDFeInt } from '../responses/event-responses.js';
import { nfeProc } from './document-views.js';
import { type SefazCall, type SimServices } from './sefaz-context.js';
import { sameCompany } from './signature-checks.js';

const NO_NSU = '000000000000000';

/**
 * NFeDistribuicaoDFe (AN): the interested party's feed. distNSU gives up to 50 documents after ultNSU (138) or none
 * (137, which starts the pause after which asking again is 656 Consumo Indevido); consNSU one document; consChNFe
 * the nfeProc of a document the party issued or received. The certificate must belong to the party (593).
 */
export function handleDistribution(call: SefazCall, services: SimServices, message: string): string {
  const { clock, feed, state } = services;
  const now = clock.now();
  const answer = (cStat: string, ultNSU = NO_NSU, maxNSU = NO_NSU, documents: { nsu: string; schema: string; xml: string }[] = []) =>
    retDistDFeInt({ tpAmb: call.tpAmb, cStat, xMotivo: cstatMessage(cStat), dhResp: clock.stamp(now), ultNSU, maxNSU }, documents);
  if (!validateXml('distDFeInt', message).valid) return answer('215');
  const request = rootOf(parseXmlTree(message)).node;
  if (textOf(request, 'tpAmb') !== call.tpAmb) return answer('252');
  const taxId = textOf(request, 'CNPJ') ?? textOf(request, 'CPF') ?? '';
  if (!sameCompany(taxId, call.transmitterTaxId)) return answer('593');
  feed.countQuery(taxId);

  const distNSU = childOf(request, 'distNSU');
  if (distNSU) {
    const ultNSU = (textOf(distNSU, 'ultNSU') ?? NO_NSU).padStart(15, '0');
    const { documents, maxNSU } = feed.after(taxId, ultNSU);
    if (ultNSU > maxNSU) return answer('589', ultNSU, maxNSU);
    if (documents.length === 0) {
      if (feed.tooSoon(taxId, now.getTime())) return answer('656', ultNSU, maxNSU);
      feed.recordEmpty(taxId, now.getTime());
      return answer('137', maxNSU, maxNSU);
    }
    feed.clearPace(taxId);
    return answer('138', documents.at(-1)?.nsu ?? ultNSU, maxNSU, documents);
  }
  const consNSU = childOf(request, 'consNSU');
  if (consNSU) {
    const document = feed.one(taxId, textOf(consNSU, 'NSU') ?? '');
    const { maxNSU } = feed.after(taxId, NO_NSU);
    return document ? answer('138', document.nsu, maxNSU, [document]) : answer('137', NO_NSU, maxNSU);
  }
  const key = textOf(childOf(request, 'consChNFe') ?? {}, 'chNFe') ?? '';
  const document = state.findByKey(key);
  const party = document && (document.issuerTaxId === taxId || document.recipientTaxId === taxId);
  if (!document || !party || document.tpAmb !== call.tpAmb) return answer('137');
  if (document.cancelled) return answer('653');
  return answer('138', NO_NSU, NO_NSU, [{ nsu: NO_NSU, schema: 'procNFe_v4.00.xsd', xml: nfeProc(document) }]);
}
