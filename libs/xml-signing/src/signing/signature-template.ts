import { ENVELOPED_SIGNATURE_TRANSFORM, XMLDSIG_NAMESPACE, type SignatureProfile } from './signature-profiles.js';

/**
 * SignedInfo exactly as C14N renders it inside `<Signature xmlns="…xmldsig#">`: the dsig default namespace on
 * SignedInfo, no self-closing tags. This text is what gets RSA-signed. Inclusive C14N also renders every prefixed
 * namespace declared on an ancestor of the Signature (`inheritedPrefixedNamespaces`, e.g. an `xmlns:xsi` on the
 * root); exclusive C14N renders none of them, as SignedInfo uses no prefix.
 */
export function canonicalSignedInfo(
  profile: SignatureProfile,
  id: string,
  digestValue: string,
  inheritedPrefixedNamespaces: [prefix: string, uri: string][],
): string {
  const inherited =
    profile.canonicalization === 'inclusive'
      ? inheritedPrefixedNamespaces.map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`).join('')
      : '';
  return (
    `<SignedInfo xmlns="${XMLDSIG_NAMESPACE}"${inherited}>` +
    `<CanonicalizationMethod Algorithm="${profile.canonicalizationUri}"></CanonicalizationMethod>` +
    `<SignatureMethod Algorithm="${profile.signatureMethodUri}"></SignatureMethod>` +
    `<Reference URI="#${id}">` +
    `<Transforms>` +
    `<Transform Algorithm="${ENVELOPED_SIGNATURE_TRANSFORM}"></Transform>` +
    `<Transform Algorithm="${profile.canonicalizationUri}"></Transform>` +
    `</Transforms>` +
    `<DigestMethod Algorithm="${profile.digestMethodUri}"></DigestMethod>` +
    `<DigestValue>${digestValue}</DigestValue>` +
    `</Reference>` +
    `</SignedInfo>`
  );
}

/**
 * The Signature element as spliced into the document. SignedInfo inherits the dsig namespace from Signature, so
 * its own declaration is dropped: the document stays canonical and SignedInfo canonicalises to the signed text.
 */
export function signatureElement(signedInfo: string, signatureValue: string, certificateBase64: string): string {
  const signedInfoInDocument = `<SignedInfo>${signedInfo.slice(signedInfo.indexOf('>') + 1)}`;
  return (
    `<Signature xmlns="${XMLDSIG_NAMESPACE}">` +
    signedInfoInDocument +
    `<SignatureValue>${signatureValue}</SignatureValue>` +
    `<KeyInfo><X509Data><X509Certificate>${certificateBase64}</X509Certificate></X509Data></KeyInfo>` +
    `</Signature>`
  );
}
