// nfeProc 4.00: the legal distribution file, the signed NFe followed by the authorizer's protNFe, both embedded byte
// for byte (the NFe signature covers infNFe; protNFe may carry the authorizer's own signature).
import { element, XmlBuildError } from '../writer/canonical-xml.js';
import { NFE_NAMESPACE, withoutXmlDeclaration } from './nfe-common.js';

/**
 * `signedNfe` as sent; `protocolXml` as received (NfeProtocol.rawXml from parseRetEnviNFe / parseRetConsSitNFe). A
 * prefixed protNFe (ns0:protNFe) would lose its namespace declaration once moved, so it is refused.
 */
export function buildNfeProc(input: { signedNfe: string; protocolXml: string }): string {
  const nfe = withoutXmlDeclaration(input.signedNfe);
  if (!nfe.startsWith('<NFe ') || !nfe.includes('<Signature')) throw new XmlBuildError('signedNfe: expected a signed <NFe> document');
  const protocol = input.protocolXml.trim();
  if (!/^<protNFe[\s>]/.test(protocol) || !protocol.endsWith('</protNFe>')) {
    throw new XmlBuildError('protocolXml: expected an unprefixed <protNFe> element as received');
  }
  return element('nfeProc', nfe + protocol, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}
