// A block's labelled fields as data, the same in both layouts: one entry a field (its label, where its value comes from,
// how it is laid out), read from the block's source by one function; each layout turns the result into its own HTML
// (the DANFE's ruled cells, the DANFSe's grid).

/** The properties of T that are text: a field that prints one of them as it stands names it. */
export type TextKey<T> = { [K in keyof T]-?: T[K] extends string ? K : never }[keyof T];

/**
 * One field of a block: its label; its value, a text property of the source or computed from it (undefined: the
 * field is not printed at all); and its layout in the block (the DANFE's cell options, the DANFSe's grid classes).
 */
export type FieldSpec<T, Layout> = readonly [label: string, value: TextKey<T> | ((source: T) => string | undefined), layout?: Layout];

/** The value of one field read from `source`. */
export function fieldValue<T, Layout>(source: T, [, value]: FieldSpec<T, Layout>): string | undefined {
  return typeof value === 'function' ? value(source) : (source[value] as string);
}

/** The fields of `table` that `source` prints, in order: label, value and layout each. */
export function readFields<T, Layout>(
  source: T,
  table: readonly FieldSpec<T, Layout>[],
): [label: string, value: string, layout: Layout | undefined][] {
  return table.flatMap((spec) => {
    const value = fieldValue(source, spec);
    return value === undefined ? [] : [[spec[0], value, spec[2]] as [string, string, Layout | undefined]];
  });
}
