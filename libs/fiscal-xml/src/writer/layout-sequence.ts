// The layouts are long sequences of text elements named as the model's fields: writing them as data (a list in
// the XSD's order) keeps each group one readable line of names instead of dozens of `el('x', source.x) +`.
import { textElement, XmlBuildError } from './canonical-xml.js';

type FieldName<T> = Extract<keyof T, string>;

/**
 * One step of a sequence: a field written as `<name>value</name>` (required), `name?` (left out when undefined),
 * or a function for what is not a plain field (a nested group, a choice).
 */
export type SequencePart<T> = FieldName<T> | `${FieldName<T>}?` | ((source: T) => string);

/** Writes `source`'s fields in the order `parts` gives; `where` names the group in errors. */
export function sequenceXml<T>(where: string, source: T, parts: readonly SequencePart<T>[]): string {
  const fields = source as unknown as Record<string, string | number | undefined>;
  let xml = '';
  for (const part of parts) {
    if (typeof part === 'function') {
      xml += part(source);
      continue;
    }
    const optional = part.endsWith('?');
    const name = optional ? part.slice(0, -1) : part;
    const value = fields[name];
    if (value === undefined) {
      if (optional) continue;
      throw new XmlBuildError(`${where}.${name}: required`);
    }
    xml += textElement(name, value);
  }
  return xml;
}

/** A nested object written in place (no wrapping element) when present: the ICMS sub-groups, for example. */
export function nestedFields<T, K extends FieldName<T>>(key: K, parts: readonly SequencePart<NonNullable<T[K]>>[]): (source: T) => string {
  return (source) => {
    const nested = source[key];
    return nested === undefined || nested === null ? '' : sequenceXml(key, nested as NonNullable<T[K]>, parts);
  };
}
