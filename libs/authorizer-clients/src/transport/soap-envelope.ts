import { NFE_WSDL_NAMESPACE_BASE, type SefazEndpoint } from '../routing/resolve-sefaz-endpoint.js';

export const SOAP12_NAMESPACE = 'http://www.w3.org/2003/05/soap-envelope';

/**
 * SOAP 1.2 request per the 4.00 WSDLs: `<nfeDadosMsg xmlns=".../wsdl/<operation>">` holding the data message, and
 * for NFeDistribuicaoDFe the extra `<nfeDistDFeInteresse>` wrapper. The data message is embedded as the exact string
 * it was signed as (inclusive C14N digests depend on it), so it must not carry an XML declaration.
 */
export function buildSoapEnvelope(endpoint: Pick<SefazEndpoint, 'operation' | 'method'>, dataMessage: string): string {
  const message = dataMessage.replace(/^\uFEFF?\s*<\?xml[^>]*\?>\s*/, '');
  if (message.startsWith('<?') || message.includes('<!DOCTYPE')) throw new Error('data message must be a bare element');
  const namespace = `${NFE_WSDL_NAMESPACE_BASE}${endpoint.operation}`;
  const body =
    endpoint.operation === 'NFeDistribuicaoDFe'
      ? `<nfeDistDFeInteresse xmlns="${namespace}"><nfeDadosMsg>${message}</nfeDadosMsg></nfeDistDFeInteresse>`
      : `<nfeDadosMsg xmlns="${namespace}">${message}</nfeDadosMsg>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?>` +
    `<soap12:Envelope xmlns:soap12="${SOAP12_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap12:Body>${body}</soap12:Body></soap12:Envelope>`
  );
}

export function soapHeaders(endpoint: Pick<SefazEndpoint, 'soapAction'>): Record<string, string> {
  return {
    'content-type': `application/soap+xml; charset=utf-8; action="${endpoint.soapAction}"`,
    accept: 'application/soap+xml, text/xml',
  };
}
