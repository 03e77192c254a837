import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ParseOption, XmlDocument, XmlParseError, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import { hostileXmlReason } from './hostile-xml-guard.js';
import { allowSchemaRoot } from './schema-input-provider.js';
import { BUNDLED_SCHEMA_ROOT, SCHEMAS, bundledSchemaFile, isSchemaName, type SchemaName } from './schema-catalog.js';

export interface XsdError {
  line: number;
  message: string;
}

export type XsdResult = { valid: true } | { valid: false; errors: XsdError[] };

/**
 * validateXmlDocument's answer: when valid, the libxml2 document that was validated, for a caller that reads the
 * same bytes again (the authorizer simulator verifies the signature on it instead of parsing a second time). The
 * caller owns it and must dispose() it (wasm memory is not garbage-collected).
 */
export type XsdDocumentResult = { valid: true; document: XmlDocument } | { valid: false; errors: XsdError[] };

/** Thrown by assertValid; `errors` are the same as validateXml's. */
export class XsdValidationError extends Error {
  override readonly name = 'XsdValidationError';

  constructor(
    readonly schema: SchemaName,
    readonly errors: XsdError[],
  ) {
    super(`XML is not valid against ${schema}: ${errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`);
  }
}

export interface SchemaValidator {
  validateXml(schema: SchemaName, xml: string): XsdResult;
  /** Same checks and errors as validateXml; when valid, hands back the parsed document (the caller disposes it). */
  validateXmlDocument(schema: SchemaName, xml: string): XsdDocumentResult;
  assertValid(schema: SchemaName, xml: string): void;
  /** Frees the compiled schemas (wasm memory). The validator is unusable afterwards. */
  dispose(): void;
}

export interface SchemaValidatorOptions {
  /**
   * Absolute path of the entry XSD of a schema. Defaults to the copies in libs/fiscal-xml/schemas; conformance
   * tests point it at another package (e.g. the official PL_010b) to compare.
   */
  schemaFile?: (schema: SchemaName) => string;
}

// No entity substitution, no DTD loading, no network, no external entities: hostileXmlReason already refused
// DTDs, this is the second fence.
const DOCUMENT_PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;

interface CompiledSchema {
  schemaDocument: XmlDocument;
  validator: XsdValidator;
}

function cleanMessage(message: string): string {
  return message.replace(/\s+$/, '');
}

function rootMismatch(schema: SchemaName, document: XmlDocument): XsdError | null {
  const { root, namespace } = SCHEMAS[schema];
  const element = document.root;
  if (element.name === root && element.namespaceUri === namespace) return null;
  return {
    line: element.line,
    message: `Root element {${element.namespaceUri}}${element.name} is not the ${schema} root {${namespace}}${root}`,
  };
}

export function createSchemaValidator(options: SchemaValidatorOptions = {}): SchemaValidator {
  const schemaFile = options.schemaFile ?? ((schema: SchemaName) => bundledSchemaFile(BUNDLED_SCHEMA_ROOT, schema));
  const compiled = new Map<SchemaName, CompiledSchema>();
  let disposed = false;

  function compile(schema: SchemaName): CompiledSchema {
    const cached = compiled.get(schema);
    if (cached) return cached;
    if (!isSchemaName(schema)) throw new Error(`Unknown XSD schema: ${String(schema)}`);
    const file = schemaFile(schema);
    allowSchemaRoot(dirname(file));
    // readFileSync throws on a missing schema: a missing schema is an error, never a pass.
    const schemaDocument = XmlDocument.fromBuffer(readFileSync(file), { url: file, option: ParseOption.XML_PARSE_NONET });
    try {
      const entry = { schemaDocument, validator: XsdValidator.fromDoc(schemaDocument) };
      compiled.set(schema, entry);
      return entry;
    } catch (error) {
      schemaDocument.dispose();
      throw new Error(`XSD ${file} does not compile: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  function validateXmlDocument(schema: SchemaName, xml: string): XsdDocumentResult {
    if (disposed) throw new Error('This schema validator was disposed');
    const { validator } = compile(schema);
    const hostile = hostileXmlReason(xml);
    if (hostile) return { valid: false, errors: [hostile] };
    let document: XmlDocument;
    try {
      // fromBuffer with Node's native UTF-8 encoder: the same bytes and the same parse (no encoding is forced in
      // either case) as fromString, whose JavaScript UTF-8 encoder cost more than libxml2's own parse.
      document = XmlDocument.fromBuffer(Buffer.from(xml, 'utf8'), { option: DOCUMENT_PARSE_OPTIONS });
    } catch (error) {
      if (error instanceof XmlParseError) {
        return { valid: false, errors: error.details.map((d) => ({ line: d.line, message: cleanMessage(d.message) })) };
      }
      throw error;
    }
    let valid = false;
    try {
      const mismatch = rootMismatch(schema, document);
      if (mismatch) return { valid: false, errors: [mismatch] };
      validator.validate(document);
      valid = true;
      return { valid: true, document };
    } catch (error) {
      if (error instanceof XmlValidateError) {
        return { valid: false, errors: error.details.map((d) => ({ line: d.line, message: cleanMessage(d.message) })) };
      }
      throw error;
    } finally {
      if (!valid) document.dispose();
    }
  }

  function validateXml(schema: SchemaName, xml: string): XsdResult {
    const result = validateXmlDocument(schema, xml);
    if (!result.valid) return result;
    result.document.dispose();
    return { valid: true };
  }

  return {
    validateXml,
    validateXmlDocument,
    assertValid(schema, xml) {
      const result = validateXml(schema, xml);
      if (!result.valid) throw new XsdValidationError(schema, result.errors);
    },
    dispose() {
      disposed = true;
      for (const { validator, schemaDocument } of compiled.values()) {
        validator.dispose();
        schemaDocument.dispose();
      }
      compiled.clear();
    },
  };
}

let shared: SchemaValidator | null = null;

function sharedValidator(): SchemaValidator {
  shared ??= createSchemaValidator();
  return shared;
}

/** Validates against the bundled schemas; each schema is compiled on first use and reused (process-wide). */
export function validateXml(schema: SchemaName, xml: string): XsdResult {
  return sharedValidator().validateXml(schema, xml);
}

/**
 * Like validateXml, and when valid also returns the parsed document, which the caller must dispose(). For a caller
 * that reads the validated bytes again with libxml2: one parse instead of two.
 */
export function validateXmlDocument(schema: SchemaName, xml: string): XsdDocumentResult {
  return sharedValidator().validateXmlDocument(schema, xml);
}

/** Like validateXml, but throws XsdValidationError listing every error. */
export function assertValid(schema: SchemaName, xml: string): void {
  sharedValidator().assertValid(schema, xml);
}
