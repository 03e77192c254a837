import { textElement } from '@talao/fiscal-xml';

/** A field of an answer: its tag and value, or no value when the schema makes it optional and there is none. */
export type Field = readonly [tag: string, value: string | number | undefined];

/** The fields as consecutive text elements, in the order given (the schema's), an absent value writing nothing. */
export function textElements(fields: readonly Field[]): string {
  let xml = '';
  for (const [tag, value] of fields) if (value !== undefined) xml += textElement(tag, String(value));
  return xml;
}

/** The properties of `T` that hold an element's text: an answer's inputs are named by the tags they fill. */
type TextKey<T> = { [K in keyof T]-?: T[K] extends string | number | undefined ? K : never }[keyof T] & string;

/**
 * The answer's elements in the order given (the schema's): a tag is filled by the property of `values` of that name,
 * a field gives its tag and value outright.
 */
export function elementsOf<T>(values: T, items: readonly (TextKey<T> | Field)[]): string {
  return textElements(items.map((item): Field => (typeof item === 'string' ? [item, values[item] as Field[1]] : item)));
}

/** CPF or CNPJ by the length of the tax id, as the answers that name an issuer or an author carry it. */
export const taxIdField = (taxId: string): Field => [taxId.length === 11 ? 'CPF' : 'CNPJ', taxId];
