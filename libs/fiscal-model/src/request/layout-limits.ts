// Where a document's layout holds less than the request allows (NF-e dest/xNome 2–60 while client_name allows 120),
// the request is refused before transmission, naming the field, the document type and the limit: a legal name or a
// street is never cut to fit.
import { type FieldError, fieldError } from './field-error.js';

export interface LayoutLimit {
  /** The XML element that carries the value, for the message ("dest/xNome"). */
  readonly element: string;
  readonly min: number;
  readonly max: number;
}

const DOCUMENT_NAMES = { nfe: 'NF-e', nfse: 'NFS-e' } as const;

export function checkLayoutLength(
  value: string,
  field: string,
  documentType: 'nfe' | 'nfse',
  limit: LayoutLimit,
  errors: FieldError[],
): void {
  if (value.length >= limit.min && value.length <= limit.max) return;
  const expected = `${limit.min}–${limit.max} characters for ${documentType}`;
  const message = `The ${DOCUMENT_NAMES[documentType]} carries ${field} in ${limit.element}, which holds ${limit.min} to ${limit.max} characters; got ${value.length} (document_type ${documentType})`;
  errors.push(fieldError(value.length > limit.max ? 'FIELD_TOO_LONG' : 'FIELD_INVALID', field, message, expected, value));
}

/** NF-e 4.00 (leiaute): dest/xNome TString 2–60; enderDest xLgr 2–60, xBairro 2–60. */
export const NFE_LIMITS = {
  clientName: { element: 'dest/xNome', min: 2, max: 60 },
  street: { element: 'enderDest/xLgr', min: 2, max: 60 },
  neighborhood: { element: 'enderDest/xBairro', min: 2, max: 60 },
} as const satisfies Record<string, LayoutLimit>;
