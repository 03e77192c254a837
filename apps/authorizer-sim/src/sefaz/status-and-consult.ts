import { parseXmlTree, rootOf, textOf, validateXml } from '@talao/fiscal-xml';
import { cstatMessage } from '../responses/cstat.js';
import { type AnswerHeader, retConsReciNFe, retConsSitNFe, retConsStatServ } from '../responses/nfe-responses.js';
import { answerStateCode, type SefazCall, type SimServices, statesServedBy } from './sefaz-context.js';

function header(call: SefazCall, services: SimServices, cStat: string, cUF: string): AnswerHeader {
  return { tpAmb: call.tpAmb, cStat, xMotivo: cstatMessage(cStat), cUF, dhRecbto: services.clock.stamp() };
}

/** NFeStatusServico4: 107 in operation, 108 when paused by the control API; 215, 252, 289 as the real ones. */
export function handleStatusService(call: SefazCall, services: SimServices, message: string): string {
  const cUF = answerStateCode(call.authorizer, message);
  if (!validateXml('consStatServ', message).valid) return retConsStatServ(header(call, services, '215', cUF));
  const request = rootOf(parseXmlTree(message)).node;
  if (textOf(request, 'tpAmb') !== call.tpAmb) return retConsStatServ(header(call, services, '252', cUF));
  if (!statesServedBy(call.authorizer).includes(cUF)) return retConsStatServ(header(call, services, '289', cUF));
  if (services.faults.for(call.authorizer).paused) return retConsStatServ(header(call, services, '108', cUF));
  return retConsStatServ(header(call, services, '107', cUF), 1);
}

/** NFeConsultaProtocolo4: the document's protocol and events (100, 101 cancelled), or 217 when unknown. */
export function handleConsult(call: SefazCall, services: SimServices, message: string): string {
  const cUF = answerStateCode(call.authorizer, message);
  const keyInMessage = /<chNFe>([0-9A-Z]{44})<\/chNFe>/.exec(message)?.[1] ?? '0'.repeat(44);
  const answer = (cStat: string, protocol?: string, events: string[] = [], uf = cUF) =>
    retConsSitNFe({ ...header(call, services, cStat, uf), chNFe: keyInMessage }, protocol, events);
  if (!validateXml('consSitNFe', message).valid) return answer('215');
  const request = rootOf(parseXmlTree(message)).node;
  if (textOf(request, 'tpAmb') !== call.tpAmb) return answer('252');
  const document = services.state.findByKey(keyInMessage);
  if (!document || document.tpAmb !== call.tpAmb) return answer('217', undefined, [], keyInMessage.slice(0, 2));
  const events = document.events.map((e) => e.procEventoXml);
  return answer(document.cancelled ? '101' : '100', document.protNFe, events, document.cUF);
}

/** NFeRetAutorizacao4: the result of an asynchronous lot (105 while processing, 104 with protNFe, 106 unknown). */
export function handleReceipt(call: SefazCall, services: SimServices, message: string): string {
  const cUF = answerStateCode(call.authorizer, message);
  const nRecInMessage = /<nRec>(\d{15})<\/nRec>/.exec(message)?.[1] ?? '0'.repeat(15);
  const answer = (cStat: string, protocols: string[] = [], uf = cUF) =>
    retConsReciNFe({ ...header(call, services, cStat, uf), nRec: nRecInMessage }, protocols);
  const tree = rootOf(parseXmlTree(message));
  if (tree.name !== 'consReciNFe' || !/^\d{15}$/.test(nRecInMessage)) return answer('215');
  if (textOf(tree.node, 'tpAmb') !== call.tpAmb) return answer('252');
  const receipt = services.state.findReceipt(nRecInMessage);
  if (!receipt || receipt.tpAmb !== call.tpAmb) return answer('106');
  if (services.clock.now().getTime() < receipt.readyAt) return answer('105', [], receipt.cUF);
  return answer('104', [receipt.protNFe], receipt.cUF);
}
