const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const WSDL = 'http://www.portalfiscal.inf.br/nfe/wsdl/';

/** SOAP 1.2 answer as the 4.00 services send it: `nfeResultMsg` (DistDFe: `nfeDistDFeInteresseResponse/Result`). */
export function soapResult(operation: string, message: string): string {
  const inner =
    operation === 'NFeDistribuicaoDFe'
      ? `<nfeDistDFeInteresseResponse xmlns="${WSDL}${operation}"><nfeDistDFeInteresseResult>${message}</nfeDistDFeInteresseResult></nfeDistDFeInteresseResponse>`
      : `<nfeResultMsg xmlns="${WSDL}${operation}">${message}</nfeResultMsg>`;
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
}

/** SOAP 1.2 fault, sent with HTTP 500 as the real services do for requests that are not SOAP at all. */
export function soapFault(reason: string): string {
  const text = reason.replace(/[<&>]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body><soap:Fault>` +
    `<soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="pt-BR">${text}</soap:Text></soap:Reason>` +
    `</soap:Fault></soap:Body></soap:Envelope>`
  );
}
