import fc from 'fast-check';
import { MAX_JSON_DEPTH, scanJsonText, type JsonTextProblem } from './json-scan.js';

/** A plain recursive statement of the same rules, over the parsed value (the scan must agree with it). */
function reference(value: unknown, depth = 0, path = ''): JsonTextProblem | null {
  const name = (key: string) => (path === '' ? key : `${path}.${key}`);
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { kind: 'unstorable_text', field: path || '(body)', character: 'NUL' };
    if (/\p{Cs}/u.test(value)) return { kind: 'unstorable_text', field: path || '(body)', character: 'unpaired surrogate' };
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH) return { kind: 'too_deep', maxDepth: MAX_JSON_DEPTH };
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = reference(item, depth + 1, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const shown = key.replace(/\p{Cs}/gu, '\uFFFD').replaceAll('\u0000', '\uFFFD');
    if (key.includes('\u0000')) return { kind: 'unstorable_text', field: name(shown), character: 'NUL' };
    if (/\p{Cs}/u.test(key)) return { kind: 'unstorable_text', field: name(shown), character: 'unpaired surrogate' };
    if (['__proto__', 'constructor', 'prototype'].includes(key)) return { kind: 'forbidden_key', field: name(key) };
    const found = reference(item, depth + 1, name(key));
    if (found) return found;
  }
  return null;
}

describe('scanJsonText', () => {
  it('passes ordinary bodies, escapes included', () => {
    expect(scanJsonText('{"a":"x\\"y\\\\","b":[1,{"c":"\\u00e9\\ud83c\\udf5e"}],"d":null}')).toBeNull();
    expect(scanJsonText('  [ ]  ')).toBeNull();
  });

  it('refuses nesting past the bound without recursing (100,000 levels)', () => {
    expect(scanJsonText(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBeNull();
    expect(scanJsonText(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toEqual({
      kind: 'too_deep',
      maxDepth: MAX_JSON_DEPTH,
    });
    expect(scanJsonText('{"a":'.repeat(100_000))).toEqual({ kind: 'too_deep', maxDepth: MAX_JSON_DEPTH });
  });

  it('names the field holding a NUL or an unpaired surrogate, in values and in keys', () => {
    expect(scanJsonText('{"buyer":{"name":"Ma\\u0000ria"}}')).toEqual({ kind: 'unstorable_text', field: 'buyer.name', character: 'NUL' });
    expect(scanJsonText('{"items":[{"a":1},{"description":"x\\ud800"}]}')).toEqual({
      kind: 'unstorable_text',
      field: 'items[1].description',
      character: 'unpaired surrogate',
    });
    expect(scanJsonText('{"items":[{"\\udc00":1}]}')).toEqual({
      kind: 'unstorable_text',
      field: 'items[0].\uFFFD',
      character: 'unpaired surrogate',
    });
    expect(scanJsonText('["\\u0000"]')).toEqual({ kind: 'unstorable_text', field: '[0]', character: 'NUL' });
    expect(scanJsonText('"\\u0000"')).toEqual({ kind: 'unstorable_text', field: '(body)', character: 'NUL' });
  });

  it('refuses a repeated key and the keys of JavaScript object internals', () => {
    expect(scanJsonText('{"a":{"b":1,"b":2}}')).toEqual({ kind: 'duplicate_key', field: 'a.b' });
    // Same key spelled two ways is still the same key.
    expect(scanJsonText('{"ab":1,"a\\u0062":2}')).toEqual({ kind: 'duplicate_key', field: 'ab' });
    expect(scanJsonText('{"a":[{"b":1},{"b":1}]}')).toBeNull();
    expect(scanJsonText('{"x":{"__proto__":{"admin":true}}}')).toEqual({ kind: 'forbidden_key', field: 'x.__proto__' });
    expect(scanJsonText('{"constructor":{"prototype":1}}')).toEqual({ kind: 'forbidden_key', field: 'constructor' });
  });

  it('shortens a huge key in the field it names', () => {
    const found = scanJsonText(`{"${'k'.repeat(100_000)}":1,"${'k'.repeat(100_000)}":2}`);
    expect(found).toEqual({ kind: 'duplicate_key', field: `${'k'.repeat(64)}…` });
  });

  it('agrees with the recursive statement of its rules on any JSON value', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\u0000', '\ud800', 'a\udfffb', '__proto__', 'constructor'),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { maxDepth: 40, depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        text,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        // Object.entries (the reference) and JSON.stringify agree on key order; dictionary keys are distinct.
        expect(scanJsonText(JSON.stringify(v))).toEqual(reference(v));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (t) => void scanJsonText(t)),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', 'a', '\\u0000')).map((a) => a.join('')),
        (t) => void scanJsonText(t),
      ),
    );
  });
});
