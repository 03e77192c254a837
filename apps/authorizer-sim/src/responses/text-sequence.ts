import { textElement } from '@talao/fiscal-xml';

/** A field of an answer: its tag and value, or no value when the schema makes it optional and there is none. */
export type Field = readonly [tag: string, value: string | number | undefined];

/** The fields as consecutive text elements, in the order given (the schema's), an absent value writing nothing. */
export function textElements(fields: readonly Field[]): string {
  let xml = '';
  for (const [tag, value] of fields) if (value !== undefined) xml += textElement(tag, String(value));
  return xml;
}

/** CPF or CNPJ by the length of the tax id, as the answers that name an issuer or an author carry it. */
export const taxIdField = (taxId: string): Field => [taxId.length === 11 ? 'CPF' : 'CNPJ', taxId];
