// Readers of the NFS-e Nacional answers: Sefin Nacional JSON (POST /nfse, GET /nfse/{key}, GET /dps/{id},
// POST /nfse/{key}/eventos), ADN distribution by NSU, and the NFS-e XML itself. Field names per the official
// OpenAPI specs in shared/fiscal/webservices/nfse_nacional_openapi.
import { decodeGzipBase64 } from './gzip-base64.js';
import { attributeOf, childOf, parseXmlTree, requiredChild, requiredText, rootOf, textOf, XmlParseError } from './hardened-xml.js';

/** 1 MiB of JSON: Sefin answers carry one gzip'd document; anything larger is refused before JSON.parse. */
export const DEFAULT_MAX_JSON_CHARS = 1024 * 1024;

export interface SefinMessage {
  readonly code: string;
  readonly description: string;
  readonly complement?: string;
}

export interface SefinEnvelope {
  readonly environment?: number | string;
  readonly applicationVersion?: string;
  readonly processedAt?: string;
}

export type SefinNfseResult =
  | (SefinEnvelope & {
      readonly ok: true;
      readonly dpsId?: string;
      readonly accessKey: string;
      /** The NFS-e XML, inflated, exactly as issued (it is signed by Sefin). */
      readonly nfseXml: string;
      readonly alerts: readonly SefinMessage[];
    })
  | (SefinEnvelope & { readonly ok: false; readonly dpsId?: string; readonly errors: readonly SefinMessage[] });

type Json = Record<string, unknown>;

function jsonObject(body: string | unknown, maxChars: number): Json {
  let value = body;
  if (typeof body === 'string') {
    if (body.length > maxChars) throw new XmlParseError(`JSON: ${body.length} characters exceeds the limit of ${maxChars}`);
    try {
      value = JSON.parse(body);
    } catch {
      throw new XmlParseError('JSON: not parseable');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new XmlParseError('JSON: expected an object');
  return value as Json;
}

function optionalString(json: Json, name: string): string | undefined {
  const value = json[name];
  return typeof value === 'string' ? value : undefined;
}

function messages(value: unknown): SefinMessage[] {
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : [];
  return list.map((item) => {
    const m = (item ?? {}) as Json;
    // Sefin uses camelCase, ADN PascalCase: accept both.
    const code = m.codigo ?? m.Codigo;
    const description = m.descricao ?? m.Descricao ?? m.mensagem ?? m.Mensagem;
    const complement = m.complemento ?? m.Complemento;
    return {
      code: typeof code === 'string' || typeof code === 'number' ? String(code) : '',
      description: typeof description === 'string' ? description : '',
      complement: typeof complement === 'string' ? complement : undefined,
    };
  });
}

function envelope(json: Json): SefinEnvelope {
  return {
    environment: (json.tipoAmbiente ?? json.TipoAmbiente) as number | string | undefined,
    applicationVersion: optionalString(json, 'versaoAplicativo') ?? optionalString(json, 'VersaoAplicativo'),
    processedAt: optionalString(json, 'dataHoraProcessamento') ?? optionalString(json, 'DataHoraProcessamento'),
  };
}

/** The answer of POST /nfse (201 or 400) or GET /nfse/{chaveAcesso}. */
export function parseSefinNfseResponse(body: string | unknown, maxChars = DEFAULT_MAX_JSON_CHARS): SefinNfseResult {
  const json = jsonObject(body, maxChars);
  const encoded = optionalString(json, 'nfseXmlGZipB64');
  const dpsId = optionalString(json, 'idDps') ?? optionalString(json, 'idDPS');
  if (encoded) {
    const accessKey = optionalString(json, 'chaveAcesso');
    if (!accessKey) throw new XmlParseError('Sefin: chaveAcesso is missing');
    return { ...envelope(json), ok: true, dpsId, accessKey, nfseXml: decodeGzipBase64(encoded), alerts: messages(json.alertas) };
  }
  const errors = messages(json.erros ?? json.erro);
  if (errors.length === 0) throw new XmlParseError('Sefin: neither an NFS-e nor errors in the answer');
  return { ...envelope(json), ok: false, dpsId, errors };
}

/** GET /dps/{id}: which NFS-e a DPS became (used to reconcile after a lost POST answer). */
export function parseSefinDpsResponse(body: string | unknown): SefinEnvelope & { dpsId: string; accessKey: string } {
  const json = jsonObject(body, DEFAULT_MAX_JSON_CHARS);
  const dpsId = optionalString(json, 'idDps');
  const accessKey = optionalString(json, 'chaveAcesso');
  if (!dpsId || !accessKey) throw new XmlParseError('Sefin: idDps and chaveAcesso are required');
  return { ...envelope(json), dpsId, accessKey };
}

export type SefinEventResult =
  | (SefinEnvelope & { readonly ok: true; readonly eventXml: string })
  | (SefinEnvelope & { readonly ok: false; readonly errors: readonly SefinMessage[] });

/** POST /nfse/{chaveAcesso}/eventos. */
export function parseSefinEventResponse(body: string | unknown): SefinEventResult {
  const json = jsonObject(body, DEFAULT_MAX_JSON_CHARS);
  const encoded = optionalString(json, 'eventoXmlGZipB64');
  if (encoded) return { ...envelope(json), ok: true, eventXml: decodeGzipBase64(encoded) };
  const errors = messages(json.erros ?? json.erro);
  if (errors.length === 0) throw new XmlParseError('Sefin: neither an event nor errors in the answer');
  return { ...envelope(json), ok: false, errors };
}

export interface AdnDistributedDocument {
  readonly nsu: number;
  readonly accessKey?: string;
  readonly documentType?: string;
  readonly eventType?: string;
  readonly xml: string;
  readonly generatedAt?: string;
}

export interface AdnDistributionBatch extends SefinEnvelope {
  /** REJEICAO, NENHUM_DOCUMENTO_LOCALIZADO or DOCUMENTOS_LOCALIZADOS. */
  readonly status: string;
  readonly documents: readonly AdnDistributedDocument[];
  readonly alerts: readonly SefinMessage[];
  readonly errors: readonly SefinMessage[];
}

/** ADN Contribuinte GET /DFe/{NSU}: LoteDistribuicaoNSUResponse. */
export function parseAdnDistribution(body: string | unknown, maxChars = 64 * 1024 * 1024): AdnDistributionBatch {
  const json = jsonObject(body, maxChars);
  const status = optionalString(json, 'StatusProcessamento');
  if (!status) throw new XmlParseError('ADN: StatusProcessamento is missing');
  const lot = Array.isArray(json.LoteDFe) ? (json.LoteDFe as Json[]) : [];
  const documents = lot.map((item) => {
    const nsu = item.NSU;
    const file = optionalString(item, 'ArquivoXml');
    if (typeof nsu !== 'number' || !Number.isSafeInteger(nsu) || !file)
      throw new XmlParseError('ADN: each LoteDFe entry needs NSU and ArquivoXml');
    return {
      nsu,
      accessKey: optionalString(item, 'ChaveAcesso'),
      documentType: optionalString(item, 'TipoDocumento'),
      eventType: optionalString(item, 'TipoEvento'),
      xml: decodeGzipBase64(file),
      generatedAt: optionalString(item, 'DataHoraGeracao'),
    };
  });
  return { ...envelope(json), status, documents, alerts: messages(json.Alertas), errors: messages(json.Erros) };
}

export interface NfseSummary {
  readonly id: string;
  /** 50 digits, the Id without "NFS". */
  readonly accessKey: string;
  readonly number: string;
  readonly status: string;
  readonly processedAt: string;
  readonly issuerTaxId?: string;
  readonly issuerName?: string;
  readonly netValue?: string;
  readonly dpsId?: string;
  readonly environment?: string;
}

/** The NFS-e XML (NFSe/infNFSe) returned by Sefin or ADN. */
export function parseNfseXml(xml: string): NfseSummary {
  const root = rootOf(parseXmlTree(xml));
  if (root.name !== 'NFSe') throw new XmlParseError(`expected <NFSe>, found <${root.name}>`);
  const info = requiredChild(root.node, 'infNFSe', 'NFSe');
  const id = attributeOf(info, 'Id');
  if (!id || !/^NFS[0-9]{50}$/.test(id)) throw new XmlParseError(`NFSe: Id ${JSON.stringify(id)} is not NFS + 50 digits`);
  const emit = childOf(info, 'emit');
  const values = childOf(info, 'valores');
  const infDps = childOf(childOf(info, 'DPS') ?? {}, 'infDPS');
  return {
    id,
    accessKey: id.slice(3),
    number: requiredText(info, 'nNFSe', 'infNFSe'),
    status: requiredText(info, 'cStat', 'infNFSe'),
    processedAt: requiredText(info, 'dhProc', 'infNFSe'),
    issuerTaxId: emit && (textOf(emit, 'CNPJ') ?? textOf(emit, 'CPF')),
    issuerName: emit && textOf(emit, 'xNome'),
    netValue: values && textOf(values, 'vLiq'),
    dpsId: infDps && attributeOf(infDps, 'Id'),
    environment: infDps && textOf(infDps, 'tpAmb'),
  };
}
