// Which documents the platform can sign. `document_type` takes nfe and nfse; the other Brazilian electronic fiscal
// documents are named here so a request for one of them answers 501 (signing not implemented) — the request is
// understood, the service cannot do it — rather than 422, which would tell the integrator the request is malformed.
// Any other value stays a validation error (422). Every company is Brazilian (the admin API takes a CNPJ and an IBGE
// municipality), so "country not implemented" cannot arise today.
import { SigningNotImplementedError } from '../errors.js';

/** Document types of the Brazilian electronic fiscal family that this platform does not sign, by model. */
export const UNSIGNABLE_DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  nfce: 'the NFC-e (consumer invoice, model 65)',
  cte: 'the CT-e (transport, model 57)',
  cteos: 'the CT-e OS (transport of people and valuables, model 67)',
  mdfe: 'the MDF-e (cargo manifest, model 58)',
  nf3e: 'the NF3e (electricity, model 66)',
  nfcom: 'the NFCom (communication services, model 62)',
  bpe: 'the BP-e (passenger ticket, model 63)',
};

/** Throws SigningNotImplementedError when the body asks for a document type the platform knows but cannot sign. */
export function assertSigningImplemented(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const documentType = (body as Record<string, unknown>)['document_type'];
  if (typeof documentType !== 'string' || !Object.hasOwn(UNSIGNABLE_DOCUMENT_TYPES, documentType)) return;
  throw new SigningNotImplementedError(documentType, UNSIGNABLE_DOCUMENT_TYPES[documentType]!);
}
