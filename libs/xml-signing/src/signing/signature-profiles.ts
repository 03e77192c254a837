export const XMLDSIG_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';

export type CanonicalizationKind = 'inclusive' | 'exclusive';

/** Everything that differs between the two signature profiles the platform produces. */
export interface SignatureProfile {
  canonicalization: CanonicalizationKind;
  canonicalizationUri: string;
  signatureMethodUri: string;
  digestMethodUri: string;
  /** node:crypto names. */
  digest: 'sha1' | 'sha256';
  /** Local names of the elements this profile may sign (a guard against signing the wrong element). */
  signableElements: readonly string[];
}

const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const ENVELOPED_SIGNATURE_TRANSFORM = ENVELOPED_SIGNATURE;

/**
 * NF-e family (NF-e, events, inutilização): Manual de Orientação do Contribuinte, "Padrão de assinatura digital":
 * enveloped, C14N 1.0 inclusive, SHA-1 digest, RSA-SHA1, X509Certificate only. Matches the real signed samples.
 */
export const NFE_FAMILY_PROFILE: SignatureProfile = {
  canonicalization: 'inclusive',
  canonicalizationUri: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  signatureMethodUri: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  digestMethodUri: 'http://www.w3.org/2000/09/xmldsig#sha1',
  digest: 'sha1',
  signableElements: ['infNFe', 'infEvento', 'infInut'],
};

/**
 * NFS-e Nacional (DPS `infDPS`, event request `infPedReg`): RSA-SHA256, SHA-256 digest, exclusive C14N. Sources:
 * shared/STACK.md ("Signing facts": the national environment signs with RSA-SHA256 and exclusive C14N; SHA-1 +
 * C14N 1.0 is reported to give E0714) and shared/fiscal/webservices/nfse_nacional_api.md ("Signatures": the NFS-e
 * Sefin returns is RSA-SHA256 / SHA-256 / exclusive C14N). Exclusive C14N without comments: the DPS the platform
 * builds has no comments, so the WithComments variant would produce the same bytes.
 */
export const NFSE_NACIONAL_PROFILE: SignatureProfile = {
  canonicalization: 'exclusive',
  canonicalizationUri: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  signatureMethodUri: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  digestMethodUri: 'http://www.w3.org/2001/04/xmlenc#sha256',
  digest: 'sha256',
  signableElements: ['infDPS', 'infPedReg'],
};
