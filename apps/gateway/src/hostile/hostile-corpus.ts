// The hostile suite's requests, built from the OpenAPI document the gateway serves (so a new route joins by being
// documented) and from sample bodies mutated generically (json-mutations.ts). Every request says what it probes
// (`category`) and, where the answer is certain, the status and the field the answer must name.
import { gzipSync } from 'node:zlib';
import {
  fieldName,
  isNumeric,
  leaves,
  nestedText,
  objects,
  otherType,
  OVERFLOWING_NUMBERS,
  withRawMember,
  withValueAt,
  type JsonPath,
} from './json-mutations.js';
import { type HostileRequest, protocolCases, requestBytes } from './hostile-requests.js';
import { pathVariants, refusedTargets } from './path-variants.js';

export type { HostileRequest };

export interface Route {
  readonly method: string;
  /** "/api/v1/invoices/{access_key}" */
  readonly template: string;
  readonly operationId: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly bodySchema?: Record<string, unknown>;
}

interface OpenApiOperation {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function routesOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      routes.push({
        method: method.toUpperCase(),
        template,
        operationId: operation.operationId ?? `${method} ${template}`,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        ...(bodySchema && { bodySchema }),
      });
    }
  }
  return routes;
}

/** A small instance of a JSON schema (examples first), for a documented body no sample covers. */
export function exampleOf(
  schema: Record<string, unknown> | undefined,
  components: Record<string, Record<string, unknown>>,
  depth = 0,
): unknown {
  if (!schema || depth > 6) return {};
  const ref = schema.$ref;
  if (typeof ref === 'string') return exampleOf(components[ref.split('/').at(-1)!], components, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return exampleOf(options[0] as Record<string, unknown>, components, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || schema.properties) {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, exampleOf(property, components, depth + 1)]));
  }
  if (type === 'array') return [exampleOf(schema.items as Record<string, unknown>, components, depth + 1)];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return 'x';
}

export interface CorpusContext {
  readonly apiKey: string;
  readonly adminToken: string;
  readonly companyId: string;
  /** Bodies per operation (samples); other documented bodies come from their schema. */
  readonly bodiesFor: (route: Route) => unknown[];
  readonly components: Record<string, Record<string, unknown>>;
  readonly limitBytes: number;
}

const UNKNOWN_ID = '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f';

const isAdmin = (route: Route) => route.template.startsWith('/admin/');

function authorization(route: Route, context: CorpusContext): Record<string, string> {
  return { authorization: `Bearer ${isAdmin(route) ? context.adminToken : context.apiKey}` };
}

/** The company's own id where the route names a company; an id nobody has elsewhere (never revoke our own key). */
function paramValue(route: Route, name: string, context: CorpusContext): string {
  const segments = route.template.split('/');
  const index = segments.indexOf(`{${name}}`);
  const previous = segments[index - 1];
  return previous === 'companies' ? context.companyId : UNKNOWN_ID;
}

function fill(route: Route, context: CorpusContext, override?: [string, string]): string {
  return route.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    override && override[0] === name ? override[1] : encodeURIComponent(paramValue(route, name, context)),
  );
}

const HOSTILE_SEGMENTS: readonly string[] = [
  '%00',
  '%',
  '%ZZ',
  '%C0%AF',
  '%ED%A0%80',
  '%F0%9F%98%80',
  'a'.repeat(4_000),
  '..',
  '%2e%2e',
  '%2F',
  '%20',
  '%27%3B%20DROP%20TABLE%20invoices%3B--',
  UNKNOWN_ID.toUpperCase(),
  '00000000-0000-0000-0000-000000000000',
  '1e400',
  '-1',
];

const HOSTILE_QUERY_VALUES: readonly string[] = [
  '%00',
  '%',
  '%ZZ',
  'a'.repeat(4_000),
  '-1',
  '1e400',
  '99999999999999999999',
  '%ED%A0%80',
  '',
  '[]',
];

function withQuery(path: string, query: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** Requests on the route's target, query and headers (every route). */
function targetAndHeaderCases(route: Route, context: CorpusContext, base: unknown): HostileRequest[] {
  const auth = authorization(route, context);
  const path = fill(route, context);
  const body = base === undefined ? undefined : JSON.stringify(base);
  const json: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const cases: HostileRequest[] = [];
  const add = (category: string, label: string, request: Partial<HostileRequest>) =>
    cases.push({
      category,
      label: `${route.method} ${route.template} ${label}`,
      method: route.method,
      path,
      headers: { ...auth, ...json },
      ...(body !== undefined && { body }),
      ...request,
    });
  // Raw requests name their own target (first line); `path` then says which path the answer is for.

  add('baseline', 'as documented', {});
  for (const name of route.pathParams) {
    for (const value of HOSTILE_SEGMENTS)
      add('path-parameter', `${name}=${value.slice(0, 40)}`, {
        raw: requestBytes(route.method, fill(route, context, [name, value]), { ...auth, ...json }, body),
      });
  }
  for (const name of route.queryParams) {
    for (const value of HOSTILE_QUERY_VALUES)
      add('query-parameter', `${name}=${value.slice(0, 40)}`, {
        raw: requestBytes(route.method, withQuery(path, `${name}=${value}`), { ...auth, ...json }, body),
      });
    add('query-parameter', `${name} twice`, { path: withQuery(path, `${name}=a&${name}=b`) });
    add('query-parameter', `${name}[]`, { path: withQuery(path, `${name}[]=a&${name}[x]=b`) });
  }
  add('query-parameter', '1,000 unknown parameters', {
    path: withQuery(path, Array.from({ length: 1_000 }, (_, i) => `p${i}=${i}`).join('&')),
  });

  // Path variants, byte for byte: the router and the rate limiter must read each the same way (path-variants.ts).
  for (const [label, target] of pathVariants(path))
    add('path-variant', label, { raw: requestBytes(route.method, target, { ...auth, ...json }, body) });
  for (const [label, target] of refusedTargets(path))
    add('path-variant', label, { raw: requestBytes(route.method, target, { ...auth, ...json }, body), expect: { status: [400] } });
  for (const method of ['HEAD', 'OPTIONS', 'PATCH', 'PUT', 'DELETE', 'POST', 'GET', 'get', 'PROPFIND']) {
    if (method !== route.method) add('method', method, { method, raw: requestBytes(method, path, { ...auth, ...json }, body) });
  }

  for (const [label, value] of [
    ['empty', ''],
    ['255 characters', 'k'.repeat(255)],
    ['256 characters', 'k'.repeat(256)],
    ['4,000 characters', 'k'.repeat(4_000)],
    ['Latin-1 bytes', 'chave-\xe9\xff'],
  ] as const) {
    add('idempotency-key', label, { raw: requestBytes(route.method, path, { ...auth, ...json, 'idempotency-key': value }, body) });
  }
  add('idempotency-key', 'twice, different values', {
    raw: requestBytes(route.method, path, { ...auth, ...json, 'idempotency-key': 'a' }, body, 'Idempotency-Key: b\r\n'),
  });

  for (const type of [
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    'application/json, text/html',
    'application/x-www-form-urlencoded',
    `application/${'j'.repeat(3_000)}`,
  ]) {
    add('content-type', type.slice(0, 40), {
      raw: requestBytes(route.method, path, { ...auth, 'content-type': type }, body ?? '{}'),
      expect: { status: [415] },
    });
  }
  const gzipped = gzipSync(Buffer.from(body ?? '{}'));
  for (const encoding of ['gzip', 'deflate', 'br', 'gzip, identity', 'x-unknown']) {
    const encoded = encoding === 'gzip' ? gzipped : Buffer.from('not compressed');
    add('content-encoding', encoding, {
      raw: requestBytes(route.method, path, { ...auth, 'content-type': 'application/json', 'content-encoding': encoding }, encoded),
      expect: { status: [415] },
    });
  }
  for (const [label, value] of [
    ['missing', undefined],
    ['Basic', 'Basic dXNlcjpwYXNz'],
    ['bearer, no token', 'Bearer '],
    ['lower-case scheme', auth.authorization!.replace('Bearer', 'bearer')],
    ['8,000-character token', `Bearer ${'t'.repeat(8_000)}`],
    ['two tokens', `${auth.authorization} extra`],
  ] as const) {
    add('authorization', label, {
      raw: requestBytes(route.method, path, { ...json, ...(value !== undefined && { authorization: value }) }, body),
    });
  }
  return cases;
}

/** Requests on the body (routes that take one), from one base body. */
function bodyCases(route: Route, context: CorpusContext, base: unknown, baseLabel: string): HostileRequest[] {
  const auth = { ...authorization(route, context), 'content-type': 'application/json' };
  const path = fill(route, context);
  const cases: HostileRequest[] = [];
  const add = (category: string, label: string, body: string | Buffer, expect?: HostileRequest['expect']) =>
    cases.push({
      category,
      label: `${route.method} ${route.template} [${baseLabel}] ${label}`,
      method: route.method,
      path,
      headers: auth,
      body,
      ...(expect && { expect }),
    });
  const at = (leafPath: JsonPath, value: unknown) => JSON.stringify(withValueAt(base, leafPath, value));

  for (const text of [
    '{',
    '{"a":}',
    '{"a":1,}',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":1} trailing',
    '\uFEFF{}',
    '{"a":1/*c*/}',
    '[1,2',
    '"\\x41"',
    '\u0000',
  ]) {
    add('malformed-json', JSON.stringify(text).slice(0, 30), text, { status: [422] });
  }
  for (const top of ['[]', '"text"', '123', 'null', 'true', '[{}]']) add('wrong-type', `body ${top}`, top);

  const all = leaves(base);
  all.forEach(([leafPath, leaf], turn) => {
    add('wrong-type', fieldName(leafPath), at(leafPath, otherType(leaf, turn)));
    add('wrong-type', `${fieldName(leafPath)} (another type)`, at(leafPath, otherType(leaf, turn + 3)));
  });
  for (const [leafPath, leaf] of all.filter(([, leaf]) => typeof leaf === 'string')) {
    const field = fieldName(leafPath);
    for (const [label, bad] of [
      ['NUL', `${leaf as string}\u0000`],
      ['lone high surrogate', `${leaf as string}\ud800`],
      ['lone low surrogate', `\udc00${leaf as string}`],
    ] as const) {
      add(label === 'NUL' ? 'nul' : 'surrogate', `${field} ${label}`, at(leafPath, bad), { status: [422], field });
    }
  }
  // Text the documents cannot carry (controls, bidi overrides, a byte-order mark, emoji): refused by the field's
  // rules or accepted where the field allows it, never stored unchecked.
  for (const [leafPath, leaf] of all.filter(([, leaf]) => typeof leaf === 'string')) {
    for (const [label, character] of [
      ['U+0001', '\u0001'],
      ['DEL', '\u007f'],
      ['U+0085', '\u0085'],
      ['bidi override', '\u202e'],
      ['BOM', '\ufeff'],
      ['emoji', '\u{1F35E}'],
    ] as const) {
      add('unusual-character', `${fieldName(leafPath)} ${label}`, at(leafPath, `${leaf as string}${character}x`));
    }
  }
  for (const [leafPath] of all.filter(([, leaf]) => typeof leaf === 'string').slice(0, 25)) {
    add('huge-string', `${fieldName(leafPath)} 100,000 characters`, at(leafPath, 'x'.repeat(100_000)));
  }
  const [firstString] = all.filter(([, leaf]) => typeof leaf === 'string');
  if (firstString)
    add(
      'huge-string',
      `${fieldName(firstString[0])} just under the body limit`,
      at(firstString[0], 'x'.repeat(context.limitBytes - 20_000)),
    );
  for (const [leafPath] of all.filter(([, leaf]) => isNumeric(leaf))) {
    for (const number of OVERFLOWING_NUMBERS) {
      const marker = 'zz_number_zz';
      add('numeric-overflow', `${fieldName(leafPath)}=${number}`, at(leafPath, marker).replace(`"${marker}"`, number));
    }
  }
  const containers = objects(base).slice(0, 12);
  for (const [objectPath, object] of containers) {
    const where = fieldName(objectPath) || '(body)';
    for (const key of ['__proto__', 'constructor', 'prototype'])
      add('prototype-key', `${key} in ${where}`, withRawMember(base, objectPath, key, '{"polluted":true}'), { status: [422] });
    const [existing] = Object.keys(object);
    if (existing)
      add('duplicate-key', `${where}.${existing} twice`, withRawMember(base, objectPath, existing, '"first"'), { status: [422] });
    add('nul', `NUL in a key of ${where}`, withRawMember(base, objectPath, 'k\u0000ey', '1'), { status: [422] });
  }
  for (const depth of [33, 1_000, 100_000]) add('deep-nesting', `${depth} levels`, nestedText(depth), { status: [422] });
  if (containers[0])
    add('deep-nesting', 'inside the body, 3,000 levels', withRawMember(base, [], 'nested', nestedText(3_000)), { status: [422] });
  const manyKeys = { ...(base as Record<string, unknown>) };
  for (let i = 0; i < 20_000; i++) manyKeys[`unknown_${i}`] = i;
  add('unknown-keys', '20,000 unknown fields', JSON.stringify(manyKeys));
  return cases;
}

/** Bodies over the limit: declared (refused before reading) and chunked (read up to the limit only). */
function oversizedCases(route: Route, context: CorpusContext): HostileRequest[] {
  const head = (extra: string) =>
    `${route.method} ${fill(route, context)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization(route, context).authorization}\r\nContent-Type: application/json\r\n${extra}\r\n`;
  const label = `${route.method} ${route.template}`;
  return [
    {
      category: 'oversized',
      label: `${label} declared 1 GiB`,
      method: route.method,
      path: '',
      headers: {},
      raw: Buffer.from(head(`Content-Length: ${2 ** 30}\r\n`)),
      expect: { status: [413] },
    },
    {
      category: 'oversized',
      label: `${label} chunked without end`,
      method: route.method,
      path: '',
      headers: {},
      raw: Buffer.from(head('Transfer-Encoding: chunked\r\n')),
      expect: { status: [413] },
    },
  ];
}

export function hostileCorpus(routes: readonly Route[], context: CorpusContext): HostileRequest[] {
  const cases: HostileRequest[] = protocolCases(context.apiKey);
  for (const route of routes) {
    const bases = route.bodySchema ? context.bodiesFor(route) : [];
    const documented = bases.length > 0 ? bases : route.bodySchema ? [exampleOf(route.bodySchema, context.components)] : [];
    cases.push(...targetAndHeaderCases(route, context, documented[0]));
    documented.forEach((base, i) => cases.push(...bodyCases(route, context, base, documented.length > 1 ? `body ${i + 1}` : 'body')));
    if (route.bodySchema) cases.push(...oversizedCases(route, context));
  }
  return cases;
}
