import { isAccessKeyValid } from '@talao/fiscal-model';
import { attributeOf, childOf, parseXmlTree, rootOf, textOf, validateXml } from '@talao/fiscal-xml';
import { cstatMessage } from '../responses/cstat.js';
import { protNFe } from '../responses/nfe-responses.js';
import { type StoredNfe } from '../state/sefaz-state.js';
import { storedDocument } from './authorization.js';
import { summaryOf } from './document-views.js';
import { type SimServices } from './sefaz-context.js';

/**
 * A document "another company" had authorized, so received-invoice sync has something to fetch. It must be a
 * schema-valid NF-e with a valid key and a recipient; the transmission rules are not replayed (the issuer is not
 * the caller).
 */
export function registerThirdPartyNfe(services: SimServices, signedNfe: string, tpAmb: '1' | '2'): StoredNfe {
  const { clock, state, feed } = services;
  if (!validateXml('nfe', signedNfe).valid) throw new Error('signedNfe is not a schema-valid NF-e');
  const infNFe = childOf(rootOf(parseXmlTree(signedNfe)).node, 'infNFe') ?? {};
  const key = (attributeOf(infNFe, 'Id') ?? '').slice(3);
  if (!isAccessKeyValid(key)) throw new Error('invalid access key');
  if (state.findByKey(key)) throw new Error('access key already registered');
  const ide = childOf(infNFe, 'ide') ?? {};
  if (textOf(ide, 'tpAmb') !== tpAmb) throw new Error(`tpAmb of the NF-e is not ${tpAmb}`);
  const emit = childOf(infNFe, 'emit') ?? {};
  const now = clock.now();
  const cUF = textOf(ide, 'cUF') ?? '';
  const nProt = state.nextProtocol(tpAmb, cUF, now);
  const digVal = /<DigestValue>([^<]+)<\/DigestValue>/.exec(signedNfe)?.[1];
  const protocol = protNFe({ tpAmb, chNFe: key, dhRecbto: clock.stamp(now), nProt, digVal, cStat: '100', xMotivo: cstatMessage('100') });
  const stored = storedDocument(infNFe, {
    key,
    cUF,
    model: textOf(ide, 'mod') ?? '55',
    issuer: textOf(emit, 'CNPJ') ?? textOf(emit, 'CPF') ?? '',
    series: Number(textOf(ide, 'serie')),
    number: Number(textOf(ide, 'nNF')),
    nProt,
    now,
    signedNfe,
    protocol,
    tpAmb,
  });
  if (!stored.recipientTaxId) throw new Error('the NF-e has no recipient tax id');
  state.store(stored);
  feed.add(stored.recipientTaxId, 'resNFe_v1.01.xsd', summaryOf(stored, clock.stamp(now)));
  return stored;
}
