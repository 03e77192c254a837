import { attributeOf, childOf, parseXmlTree, rootOf, textOf, validateXml } from '@talao/fiscal-xml';
import { cstatMessage } from '../responses/cstat.js';
import { retInutNFe } from '../responses/event-responses.js';
import { answerStateCode, type SefazCall, type SimServices, statesServedBy } from './sefaz-context.js';
import { checkNfeFamilySignature, sameCompany } from './signature-checks.js';

/** Largest range one request may void (201 beyond it). */
const MAX_RANGE = 10_000;

/**
 * NFeInutilizacao4: voids a range of unused numbers. 102 with a protocol; refused when the range holds an authorized
 * number (241), overlaps a voided range (256; 563 for the same range), or is inverted (224) or too large (201).
 */
export function handleInutilizacao(call: SefazCall, services: SimServices, message: string): string {
  const { clock, state } = services;
  const now = clock.now();
  const cUF = answerStateCode(call.authorizer, message);
  const answer = (cStat: string, extra: Partial<Parameters<typeof retInutNFe>[0]> = {}) =>
    retInutNFe({ tpAmb: call.tpAmb, cStat, xMotivo: cstatMessage(cStat), cUF, dhRecbto: clock.stamp(now), ...extra });
  if (!validateXml('inutNFe', message).valid) return answer('215');
  const inf = childOf(rootOf(parseXmlTree(message)).node, 'infInut') ?? {};
  if (textOf(inf, 'tpAmb') !== call.tpAmb) return answer('252');
  const range = {
    ano: textOf(inf, 'ano') ?? '',
    CNPJ: textOf(inf, 'CNPJ') ?? '',
    mod: textOf(inf, 'mod') ?? '',
    serie: Number(textOf(inf, 'serie')),
    nNFIni: Number(textOf(inf, 'nNFIni')),
    nNFFin: Number(textOf(inf, 'nNFFin')),
  };
  const id = attributeOf(inf, 'Id') ?? '';
  const expectedId = `ID${cUF}${range.ano}${range.CNPJ}${range.mod}${String(range.serie).padStart(3, '0')}${String(range.nNFIni).padStart(9, '0')}${String(range.nNFFin).padStart(9, '0')}`;
  if (id !== expectedId) return answer('215');
  if (!statesServedBy(call.authorizer).includes(cUF)) return answer('226');
  const signature = checkNfeFamilySignature(message, id, services.trustedCa, now);
  if (!signature.ok) return answer(signature.cStat);
  if (!sameCompany(range.CNPJ, signature.facts.signerTaxId)) return answer('213');
  if (Number(range.ano) > now.getUTCFullYear() % 100) return answer('453');
  if (range.nNFIni > range.nNFFin) return answer('224');
  if (range.nNFFin - range.nNFIni + 1 > MAX_RANGE) return answer('201');
  if (state.authorizedNumberIn(call.tpAmb, cUF, range.CNPJ, range.mod, range.serie, range.nNFIni, range.nNFFin)) return answer('241');
  for (let n = range.nNFIni; n <= range.nNFFin; n++) {
    const voided = state.findInutilized(call.tpAmb, cUF, range.CNPJ, range.mod, range.serie, n);
    if (voided) return answer(voided.first === range.nNFIni && voided.last === range.nNFFin ? '563' : '256');
  }
  const nProt = state.nextProtocol(call.tpAmb, cUF, now);
  state.addInutilized({
    tpAmb: call.tpAmb,
    cUF,
    cnpj: range.CNPJ,
    model: range.mod,
    series: range.serie,
    first: range.nNFIni,
    last: range.nNFFin,
    nProt,
  });
  return answer('102', { range, nProt });
}
