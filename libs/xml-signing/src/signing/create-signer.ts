import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { type A1Certificate } from '../pkcs12/load-pkcs12.js';
import { SignatureInputError, locateCanonicalElement } from './canonical-element.js';
import { canonicalSignedInfo, signatureElement } from './signature-template.js';
import { NFE_FAMILY_PROFILE, NFSE_NACIONAL_PROFILE, type SignatureProfile } from './signature-profiles.js';

export interface XmlSigner {
  /**
   * NF-e family: signs the `infNFe` / `infEvento` / `infInut` element whose Id is `id` (without '#') and returns
   * the document with `<Signature>` placed as the element's next sibling. RSA-SHA1, inclusive C14N 1.0.
   */
  signNfeFamily(xml: string, id: string): string;
  /** NFS-e Nacional: signs `infDPS` or `infPedReg` the same way with RSA-SHA256 and exclusive C14N. */
  signDps(xml: string, id: string): string;
}

function signWithProfile(profile: SignatureProfile, key: KeyObject, certificateBase64: string, xml: string, id: string): string {
  const element = locateCanonicalElement(xml, id, profile.canonicalization);
  if (!profile.signableElements.includes(element.name)) {
    throw new SignatureInputError(`<${element.name}> is not signed with this profile (expected ${profile.signableElements.join(', ')})`);
  }
  if (xml.startsWith('<Signature', element.end)) throw new SignatureInputError(`Id="${id}" is already signed`);
  const digestValue = createHash(profile.digest).update(element.canonical).digest('base64');
  const signedInfo = canonicalSignedInfo(profile, id, digestValue, element.inheritedPrefixedNamespaces);
  const signatureValue = sign(profile.digest, Buffer.from(signedInfo), key).toString('base64');
  return xml.slice(0, element.end) + signatureElement(signedInfo, signatureValue, certificateBase64) + xml.slice(element.end);
}

/**
 * A signer bound to one A1 certificate. The private key is imported into node:crypto once and reused. Input
 * documents must follow the canonical-by-construction contract (README); they are never re-parsed.
 */
export function createSigner(certificate: A1Certificate): XmlSigner {
  const key = createPrivateKey(certificate.privateKeyPem);
  const certificateBase64 = certificate.certificateBase64;
  return {
    signNfeFamily: (xml, id) => signWithProfile(NFE_FAMILY_PROFILE, key, certificateBase64, xml, id),
    signDps: (xml, id) => signWithProfile(NFSE_NACIONAL_PROFILE, key, certificateBase64, xml, id),
  };
}
