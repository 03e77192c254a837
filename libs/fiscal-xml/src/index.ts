// Builders (canonical by construction, ready to sign without re-parsing).
export {
  element,
  escapeAttribute,
  escapeText,
  optionalElement,
  optionalTextElement,
  textElement,
  XmlBuildError,
} from './writer/canonical-xml.js';
export { formatFiscalDateTime, stateUtcOffset } from './writer/fiscal-datetime.js';
export { type FederalTaxId, type FiscalEnvironment, NFE_NAMESPACE } from './nfe/nfe-common.js';
export { buildEnvEvento, type EventLot, type NfeEventCommon, type UnsignedNfeEvent } from './nfe/events/event-message.js';
export {
  buildCancellationEvent,
  buildCorrectionLetterEvent,
  buildManifestationEvent,
  CORRECTION_LETTER_CONDITIONS_OF_USE,
  NATIONAL_ENVIRONMENT_ORGAO,
  type CancellationEventInput,
  type CorrectionLetterInput,
  type ManifestationInput,
  type ManifestationType,
} from './nfe/events/nfe-events.js';
export {
  buildConsSitNFe,
  buildConsStatServ,
  buildDistDFeInt,
  buildEnviNFe,
  buildInutilizacao,
  type DistDFeInput,
  type DistDFeQuery,
  type InutilizacaoInput,
} from './nfe/service-requests.js';
export {
  buildNfseCancellationRequest,
  NFSE_NAMESPACE,
  type NfseCancellationInput,
  type NfseCancellationReason,
} from './nfse/cancellation-request.js';
// XSD validation (libxml2-wasm, schemas in ../schemas compiled once and cached).
export {
  assertValid,
  createSchemaValidator,
  validateXml,
  validateXmlDocument,
  XsdValidationError,
  type SchemaValidator,
  type SchemaValidatorOptions,
  type XsdDocumentResult,
  type XsdError,
  type XsdResult,
} from './xsd/xsd-validator.js';
export { BUNDLED_SCHEMA_ROOT, bundledSchemaFile, isSchemaName, SCHEMAS, type SchemaName } from './xsd/schema-catalog.js';
export { hostileXmlReason, MAX_VALIDATED_XML_BYTES } from './xsd/hostile-xml-guard.js';

// Parsers of everything the platform reads (hardened: size-bounded, DOCTYPE/ENTITY refused, entities not expanded).
export {
  assertSafeXml,
  attributeOf,
  childOf,
  childrenOf,
  DEFAULT_MAX_XML_CHARS,
  decodeXmlText,
  type FieldSource,
  optionalText,
  parseXmlTree,
  rawElement,
  readFields,
  requiredText,
  rootOf,
  textOf,
  type XmlObject,
  XmlParseError,
  type XmlValue,
} from './parsing/hardened-xml.js';
// For a reader that must build exactly parseXmlTree's tree (the simulator's canonical-form fast path).
export { addChild as addXmlTreeChild, MAX_NESTED_ELEMENTS } from './parsing/xml-tree-parser.js';
export { decodeGzipBase64, DEFAULT_MAX_INFLATED_BYTES, encodeGzipBase64 } from './parsing/gzip-base64.js';
export { fiscalResponse, SoapFaultError, unwrapSoapResponse } from './parsing/soap-envelope.js';
export {
  type AuthorizerStatus,
  type EventResult,
  type NfeProtocol,
  parseRetConsSitNFe,
  parseRetConsStatServ,
  parseRetEnviNFe,
  parseRetEnvEvento,
  parseRetInutNFe,
  type ProcessedEvent,
  readProtocol,
  type RetConsSitNFe,
  type RetConsStatServ,
  type RetEnviNFe,
  type RetEnvEvento,
  type RetInutNFe,
  statusOf,
} from './parsing/nfe-responses.js';
export {
  type DistributedDocument,
  type EventSummary,
  type NfeSummary,
  parseRetDistDFeInt,
  type ProcessedNfe,
  readDistributedDocument,
  type RetDistDFeInt,
} from './parsing/dist-dfe.js';
export {
  type AdnDistributedDocument,
  type AdnDistributionBatch,
  type NfseSummary,
  parseAdnDistribution,
  parseNfseXml,
  parseSefinDpsResponse,
  parseSefinEventResponse,
  parseSefinNfseResponse,
  type SefinEventResult,
  type SefinMessage,
  type SefinNfseResult,
} from './parsing/nfse-responses.js';

// NF-e 4.00 document builder (from fiscal-model's computed NfeDocument).
export { buildNfe, type UnsignedNfe } from './nfe/document/build-nfe.js';
// NFS-e Nacional DPS v1.01 builder (from fiscal-model's computed DpsDocument).
export { buildDps, dpsId, type UnsignedDps } from './nfse/build-dps.js';
// Build → sign → validate pipelines (the signer is libs/xml-signing's createSigner(cert)).
export {
  buildSignValidateDps,
  buildSignValidateInutilizacao,
  buildSignValidateNfe,
  buildSignValidateNfseCancellation,
  signValidateEventLot,
  type EventLotSchema,
  type NfeFamilySigner,
  type NfseSigner,
  type SignedNfe,
} from './pipeline/sign-and-validate.js';
export { buildNfeProc } from './nfe/nfe-proc.js';
