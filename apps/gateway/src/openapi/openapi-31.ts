// @nestjs/swagger emits OpenAPI 3.0 schema idioms; OpenAPI 3.1 schemas are JSON Schema 2020-12. This rewrites the
// 3.0-only constructs so the document is 3.1 in substance, not just in its version string:
//   nullable: true              → "null" added to `type` (or `anyOf [..., {type: null}]` around a $ref / typeless schema)
//   exclusiveMinimum: true      → exclusiveMinimum: <minimum> (numbers in 2020-12), same for maximum
//   example (in a schema)       → examples: [example]
type Json = unknown;
type JsonObject = Record<string, Json>;

const isObject = (value: Json): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are schemas or maps of schemas, where the 3.0 → 3.1 rewrite applies. */
const SCHEMA_KEYWORDS = new Set(['schema', 'items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'schemas']);

function convertSchema(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_KEYWORDS.has(key)) out[key] = convertSchema(value);
    else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) out[key] = value.map(convertSchema);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convertSchema(v)]));
    else out[key] = value;
  }
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true) {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if ('example' in out) {
    out.examples = [out.example];
    delete out.example;
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
    if (Array.isArray(out.type)) return { ...out, type: out.type.includes('null') ? out.type : [...out.type, 'null'] };
    return { anyOf: [out, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

/** Walks the whole document: every `schema`, `components.schemas`, parameters, headers and media types. */
function convertNode(node: Json): Json {
  if (Array.isArray(node)) return node.map(convertNode);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'schema') out[key] = convertSchema(value);
    else if (key === 'schemas' && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convertSchema(v)]));
    else out[key] = convertNode(value);
  }
  return out;
}

export function toOpenApi31<T extends object>(document: T): T {
  const converted = convertNode(document) as JsonObject;
  return {
    ...converted,
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
  } as T;
}
