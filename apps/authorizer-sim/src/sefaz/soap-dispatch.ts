import { assertSafeXml } from '@talao/fiscal-xml';
import { soapFault, soapResult } from '../responses/soap-response.js';
import { handleAuthorization } from './authorization.js';
import { handleDistribution } from './distribution.js';
import { handleEvents } from './events.js';
import { handleInutilizacao } from './inutilizacao.js';
import { type SefazCall, type SimServices } from './sefaz-context.js';
import { handleConsult, handleReceipt, handleStatusService } from './status-and-consult.js';

export interface SoapAnswer {
  status: number;
  body: string;
}

/**
 * The data message exactly as sent inside `nfeDadosMsg` (prefixed or not): signatures are verified on these bytes,
 * never on a re-serialization.
 */
export function extractDataMessage(envelope: string): string | undefined {
  const open = /<(?:[A-Za-z_][\w.-]*:)?nfeDadosMsg(?:\s[^>]*)?>/.exec(envelope);
  if (!open) return undefined;
  const prefix = /^<([A-Za-z_][\w.-]*:)?/.exec(open[0])?.[1] ?? '';
  const end = envelope.lastIndexOf(`</${prefix}nfeDadosMsg>`);
  if (end < open.index) return undefined;
  return envelope.slice(open.index + open[0].length, end).trim();
}

type Handler = (call: SefazCall, services: SimServices, message: string) => string;

const HANDLERS: Record<string, Handler> = {
  NFeStatusServico4: handleStatusService,
  NFeConsultaProtocolo4: handleConsult,
  NFeRetAutorizacao4: handleReceipt,
  NFeRecepcaoEvento4: handleEvents,
  NFeInutilizacao4: handleInutilizacao,
  NFeDistribuicaoDFe: handleDistribution,
  NFeAutorizacao4: (call, services, message) =>
    handleAuthorization(call, services, message, services.faults.take(call.authorizer, 'asyncAnswers')),
};

export function simulatedOperations(): string[] {
  return Object.keys(HANDLERS);
}

/**
 * One SOAP 1.2 call to a simulated SEFAZ endpoint. The SOAP 1.2 action travels in the Content-Type; when present it
 * must name this endpoint's operation, as the real (IIS/.NET) services dispatch on it.
 */
export function dispatchSoap(
  endpoint: { operation: string; method: string },
  call: SefazCall,
  services: SimServices,
  contentType: string,
  body: string,
): SoapAnswer {
  const { operation } = endpoint;
  if (!/^application\/soap\+xml/i.test(contentType))
    return { status: 415, body: soapFault('Content-Type must be application/soap+xml (SOAP 1.2)') };
  const action = /;\s*action="?([^";]+)"?/i.exec(contentType)?.[1];
  const expectedAction = `http://www.portalfiscal.inf.br/nfe/wsdl/${operation}/${endpoint.method}`;
  if (action !== undefined && action !== expectedAction)
    return { status: 500, body: soapFault(`Unknown SOAP action ${action}; expected ${expectedAction}`) };
  try {
    assertSafeXml(body, 2 * 1024 * 1024);
  } catch (error) {
    return { status: 500, body: soapFault((error as Error).message) };
  }
  const message = extractDataMessage(body);
  if (message === undefined || message === '') return { status: 500, body: soapFault('nfeDadosMsg not found in the SOAP body') };
  const handler = HANDLERS[operation];
  if (!handler) return { status: 500, body: soapFault(`${operation} is not simulated`) };
  try {
    return { status: 200, body: soapResult(operation, handler(call, services, message)) };
  } catch (error) {
    // A message that passed the schema but broke a handler: answer as the real services do for the unexpected.
    return { status: 500, body: soapFault(`Erro não catalogado: ${(error as Error).message}`) };
  }
}
