// One pass over a request body's JSON text, before JSON.parse, for what a parser happily accepts but this platform
// must not: nesting deeper than any request needs (recursive code further on — fingerprints, schemas, jsonb —
// would overflow the stack), a key given twice (parsers disagree on which value wins), keys that name JavaScript
// object internals, and text PostgreSQL cannot store (NUL, unpaired UTF-16 surrogates: both only reachable through
// \u escapes once the bytes decoded as strict UTF-8). Iterative, so its own depth is never the call stack's.

export const MAX_JSON_DEPTH = 32;

/** Keys that would reach an object's prototype or constructor if some code ever merged the body into an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type JsonTextProblem =
  | { readonly kind: 'too_deep'; readonly maxDepth: number }
  | { readonly kind: 'duplicate_key'; readonly field: string }
  | { readonly kind: 'forbidden_key'; readonly field: string }
  | { readonly kind: 'unstorable_text'; readonly field: string; readonly character: 'NUL' | 'unpaired surrogate' };

interface Frame {
  readonly object: boolean;
  /** Keys seen so far (objects only), to find a repeated one. */
  readonly keys: Set<string> | null;
  key: string | null;
  index: number;
}

/** In a `u` regexp a string is read by code point: only an unpaired surrogate is a code point of category Cs. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;
const UNPAIRED_SURROGATES = /\p{Cs}/gu;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A key as an error names it: printable, and short (a client may send a megabyte-long key). */
function shownKey(key: string): string {
  const safe = key.replace(UNPAIRED_SURROGATES, '\uFFFD').replaceAll('\u0000', '\uFFFD');
  return safe.length > 64 ? `${safe.slice(0, 64)}…` : safe;
}

/** "items[0].description" for the position the frames describe ("(body)" for the body itself). */
function pathOf(frames: readonly Frame[], leafKey?: string): string {
  let out = '';
  const append = (key: string) => (out += out === '' ? shownKey(key) : `.${shownKey(key)}`);
  for (const frame of frames) {
    if (!frame.object) out += `[${frame.index}]`;
    else if (frame.key !== null) append(frame.key);
  }
  if (leafKey !== undefined) append(leafKey);
  return out || '(body)';
}

function unstorable(value: string): 'NUL' | 'unpaired surrogate' | null {
  if (value.includes('\u0000')) return 'NUL';
  if (UNPAIRED_SURROGATE.test(value)) return 'unpaired surrogate';
  return null;
}

/**
 * The first problem of the text, or null. Text that is not JSON at all is left to JSON.parse (this scan never
 * throws and never allocates more than one frame per open object or array, at most `maxDepth` of them).
 */
export function scanJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextProblem | null {
  const frames: Frame[] = [];
  let expectKey = false;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      while (j < length) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else if (d === QUOTE) {
          break;
        } else {
          j++;
        }
      }
      let value = text.slice(i + 1, j);
      if (escaped) {
        try {
          value = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return null; // a malformed escape: JSON.parse refuses the whole body
        }
      }
      const top = frames.at(-1);
      const isKey = top?.object === true && expectKey;
      const field = () => (isKey ? pathOf(frames.slice(0, -1), value) : pathOf(frames));
      const character = escaped ? unstorable(value) : null;
      if (character) return { kind: 'unstorable_text', field: field(), character };
      if (isKey) {
        if (FORBIDDEN_KEYS.has(value)) return { kind: 'forbidden_key', field: field() };
        if (top.keys!.has(value)) return { kind: 'duplicate_key', field: field() };
        top.keys!.add(value);
        top.key = value;
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (frames.length >= maxDepth) return { kind: 'too_deep', maxDepth };
      const object = c === 0x7b;
      frames.push({ object, keys: object ? new Set() : null, key: null, index: 0 });
      expectKey = object;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = frames.at(-1);
      if (top?.object) expectKey = true;
      else if (top) top.index++;
    }
    i++;
  }
  return null;
}
