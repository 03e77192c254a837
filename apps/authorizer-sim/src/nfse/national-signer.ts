import { SignedXml } from 'xml-crypto';

/** The key the simulated national environment signs NFS-e and events with (issued by the simulator's CA). */
export interface NationalSigningKey {
  privateKeyPem: string;
  certificateBase64: string;
}

/**
 * Signs `element` (infNFSe, infEvento) as the national environment does: enveloped XML-DSig with exclusive C14N,
 * SHA-256 digest, RSA-SHA256, the certificate in KeyInfo, placed right after the element. A handful of documents per
 * second is all the simulator needs, so xml-crypto is fine here.
 */
export function signNationalElement(xml: string, element: 'infNFSe' | 'infEvento', key: NationalSigningKey): string {
  const exclusive = 'http://www.w3.org/2001/10/xml-exc-c14n#';
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    canonicalizationAlgorithm: exclusive,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    getKeyInfoContent: () => `<X509Data><X509Certificate>${key.certificateBase64}</X509Certificate></X509Data>`,
  });
  // Only the element's own top-level Id: the DPS embedded in infNFSe has its own signature, left untouched.
  const xpath = `/*/*[local-name(.)='${element}']`;
  signer.addReference({
    xpath,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', exclusive],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, { location: { reference: xpath, action: 'after' } });
  // Only the Signature element is taken from xml-crypto and placed into our own string: its serialization of the
  // whole document would rewrite the embedded signed DPS (empty elements, attribute quoting).
  const close = `</${element}>`;
  const at = xml.indexOf(close) + close.length;
  return xml.slice(0, at) + signer.getSignatureXml() + xml.slice(at);
}
