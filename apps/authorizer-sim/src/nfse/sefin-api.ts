// Sefin Nacional (POST /nfse, GET /nfse/{key}, HEAD|GET /dps/{id}, POST|GET /nfse/{key}/eventos…) and ADN
// (GET /danfse/{key}, GET /contribuintes/DFe/{NSU}) as JSON over the simulator's mTLS front.
import { gunzipSync, gzipSync } from 'node:zlib';
import { type X509Certificate } from 'node:crypto';
import { attributeOf, childOf, parseXmlTree, rawElement, rootOf, textOf, validateXml, type XmlObject } from '@talao/fiscal-xml';
import { type SimClock } from '../clock.js';
import { type FaultBook } from '../control/fault-settings.js';
import { checkXmlSignature, NFSE_NACIONAL_ALGORITHMS, sameCompany } from '../sefaz/signature-checks.js';
import { danfsePdf } from './danfse-pdf.js';
import { type NationalSigningKey } from './national-signer.js';
import { buildSignedEvent, buildSignedNfse, SEFIN_VERSION } from './nfse-document.js';
import { NFSE_ERRORS, type NfseError } from './nfse-errors.js';
import { nfseAccessKey } from './nfse-key.js';
import { type NfseState } from './nfse-state.js';
import { ownCopy } from '../state/own-memory.js';

export interface NfseServices {
  nfse: NfseState;
  clock: SimClock;
  faults: FaultBook;
  trustedCa: X509Certificate;
  nationalKey: NationalSigningKey;
}

export interface NfseCall {
  family: 'sefin' | 'adn';
  tpAmb: '1' | '2';
  method: string;
  /** Path below the API's base, e.g. `/nfse/{key}`. */
  path: string;
  query: URLSearchParams;
  body: string;
  transmitterTaxId: string | null;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string | Buffer;
}

const MAX_XML_BYTES = 1024 * 1024;
const KEY = '([0-9]{50})';

const gzipB64 = (xml: string) => gzipSync(Buffer.from(xml, 'utf8')).toString('base64');

class NfseRejection extends Error {
  constructor(
    readonly status: number,
    readonly error: NfseError,
  ) {
    super(error.descricao);
  }
}

function reject(status: number, error: NfseError, complemento?: string): never {
  throw new NfseRejection(status, complemento ? { ...error, complemento } : error);
}

function decodePayload(body: string, field: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    reject(400, NFSE_ERRORS.badRequest);
  }
  const payload = (json as Record<string, unknown> | null)?.[field];
  if (typeof payload !== 'string') reject(400, NFSE_ERRORS.badRequest, `campo ${field} ausente`);
  try {
    return gunzipSync(Buffer.from(payload, 'base64'), { maxOutputLength: MAX_XML_BYTES })
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } catch {
    reject(400, NFSE_ERRORS.badPayload);
  }
}

function checkSigned(services: NfseServices, xml: string, id: string, author: string | undefined): void {
  const signature = checkXmlSignature(xml, id, services.trustedCa, services.clock.now(), NFSE_NACIONAL_ALGORITHMS);
  if (!signature.ok) {
    const error = {
      profile: NFSE_ERRORS.signatureProfile,
      value: NFSE_ERRORS.signature,
      chain: NFSE_ERRORS.chain,
      expired: NFSE_ERRORS.expired,
    }[signature.failure];
    reject(400, error);
  }
  if (!sameCompany(author, signature.facts.signerTaxId)) reject(400, NFSE_ERRORS.signerNotAuthor);
}

function validated(schema: 'dps' | 'pedRegEvento', xml: string): XmlObject {
  const result = validateXml(schema, xml);
  if (!result.valid) reject(400, NFSE_ERRORS.schema, result.errors[0]?.message);
  return rootOf(parseXmlTree(xml)).node;
}

export function handleNfse(call: NfseCall, services: NfseServices): HttpAnswer {
  // Sefin's JSON is camelCase with a numeric environment; ADN's is PascalCase with an enum (the two OpenAPI specs).
  const header =
    call.family === 'adn'
      ? {
          TipoAmbiente: call.tpAmb === '1' ? 'PRODUCAO' : 'HOMOLOGACAO',
          VersaoAplicativo: SEFIN_VERSION,
          DataHoraProcessamento: services.clock.stamp(),
        }
      : { tipoAmbiente: Number(call.tpAmb), versaoAplicativo: SEFIN_VERSION, dataHoraProcessamento: services.clock.stamp() };
  const json = (status: number, body: Record<string, unknown>): HttpAnswer => ({
    status,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ ...header, ...body }),
  });
  try {
    const answer = route(call, services);
    if ('pdf' in answer) return { status: 200, contentType: 'application/pdf', body: answer.pdf };
    return json(answer.status, answer.body);
  } catch (error) {
    if (!(error instanceof NfseRejection)) throw error;
    // POST /nfse answers a list of errors; the other resources a single one (Sefin_Nacional_v1.json).
    const plural = call.method === 'POST' && call.path === '/nfse';
    return json(error.status, plural ? { erros: [error.error] } : { erro: error.error });
  }
}

type Routed = { status: number; body: Record<string, unknown> } | { pdf: Buffer };

function route(call: NfseCall, services: NfseServices): Routed {
  const { nfse } = services;
  const found = (key: string) => {
    const stored = nfse.findByKey(key);
    if (!stored || stored.tpAmb !== call.tpAmb) reject(404, NFSE_ERRORS.notFound);
    return stored;
  };
  let m: RegExpExecArray | null;
  if (call.family === 'adn') {
    if (call.method === 'GET' && (m = new RegExp(`^/danfse/${KEY}$`).exec(call.path))) return { pdf: danfsePdf(found(m[1] as string).key) };
    if (call.method === 'GET' && (m = /^\/contribuintes\/DFe\/(\d{1,20})$/.exec(call.path)))
      return distribution(call, services, Number(m[1]));
    reject(404, NFSE_ERRORS.notFound, `${call.method} ${call.path}`);
  }
  if (call.method === 'POST' && call.path === '/nfse') return emit(call, services);
  if (call.method === 'GET' && (m = new RegExp(`^/nfse/${KEY}$`).exec(call.path))) {
    const stored = found(m[1] as string);
    return { status: 200, body: { chaveAcesso: stored.key, nfseXmlGZipB64: gzipB64(stored.nfseXml) } };
  }
  if ((call.method === 'GET' || call.method === 'HEAD') && (m = /^\/dps\/(DPS[0-9]{42})$/.exec(call.path))) {
    const stored = nfse.findByDps(call.tpAmb, m[1] as string);
    if (!stored) reject(404, NFSE_ERRORS.notFound);
    return { status: 200, body: { idDps: stored.dpsId, chaveAcesso: stored.key } };
  }
  if (call.method === 'POST' && (m = new RegExp(`^/nfse/${KEY}/eventos$`).exec(call.path)))
    return registerEvent(call, services, found(m[1] as string));
  if (call.method === 'GET' && (m = new RegExp(`^/nfse/${KEY}/eventos/(\\d{6})/(\\d{1,3})$`).exec(call.path))) {
    const event = found(m[1] as string).events.get(`${m[2]}/${Number(m[3])}`);
    if (!event) reject(404, NFSE_ERRORS.notFound);
    return { status: 200, body: { eventoXmlGZipB64: gzipB64(event) } };
  }
  reject(404, NFSE_ERRORS.notFound, `${call.method} ${call.path}`);
}

function emit(call: NfseCall, services: NfseServices): Routed {
  const { nfse, clock } = services;
  const dps = decodePayload(call.body, 'dpsXmlGZipB64');
  const info = childOf(validated('dps', dps), 'infDPS') ?? {};
  const dpsId = attributeOf(info, 'Id') ?? '';
  if (textOf(info, 'tpAmb') !== call.tpAmb) reject(400, NFSE_ERRORS.environment);
  const prest = childOf(info, 'prest') ?? {};
  const provider = textOf(prest, 'CNPJ') ?? textOf(prest, 'CPF') ?? '';
  checkSigned(services, dps, dpsId, provider);
  const existing = nfse.findByDps(call.tpAmb, dpsId);
  if (existing) reject(400, NFSE_ERRORS.duplicateDps, `chaveAcesso ${existing.key}`);
  checkApproximateTaxes(info, prest);
  const forced = services.faults.takeRejection('SEFIN');
  if (forced) reject(400, { ...NFSE_ERRORS.forced, codigo: forced });

  const now = clock.now();
  const municipality = textOf(info, 'cLocEmi') ?? '';
  const number = nfse.nextNumber(provider, municipality);
  const key = nfseAccessKey({ municipality, ambGer: '2', taxId: provider, number, issuedAt: now });
  const serv = childOf(info, 'serv') ?? {};
  const cServ = childOf(serv, 'cServ') ?? {};
  const toma = childOf(info, 'toma');
  const nfseXml = ownCopy(
    buildSignedNfse(
      {
        key,
        number,
        dfeNumber: nfse.nextDfeNumber(),
        processedAt: clock.stamp(now),
        municipality,
        servicePlace: textOf(childOf(serv, 'locPrest') ?? {}, 'cLocPrestacao') ?? municipality,
        serviceCode: textOf(cServ, 'cTribNac') ?? '',
        serviceDescription: textOf(cServ, 'xDescServ') ?? '',
        providerTaxId: provider,
        providerName: textOf(prest, 'xNome') ?? `PRESTADOR ${provider}`,
        netValue: textOf(childOf(childOf(info, 'valores') ?? {}, 'vServPrest') ?? {}, 'vServ') ?? '0.00',
        signedDps: rawElement(dps, 'DPS') ?? dps,
      },
      services.nationalKey,
    ),
  );
  const takerTaxId = toma ? (textOf(toma, 'CNPJ') ?? textOf(toma, 'CPF')) : undefined;
  nfse.store({
    key: ownCopy(key),
    dpsId: ownCopy(dpsId),
    tpAmb: call.tpAmb,
    providerTaxId: ownCopy(provider),
    takerTaxId: takerTaxId === undefined ? undefined : ownCopy(takerTaxId),
    nfseXml,
    issuedAt: now,
    cancelled: false,
    events: new Map(),
  });
  for (const party of new Set([provider, takerTaxId].filter((p): p is string => !!p))) {
    nfse.feed(party, { key, documentType: 'NFSE', xml: nfseXml, generatedAt: clock.stamp(now) });
  }
  return { status: 201, body: { idDps: dpsId, chaveAcesso: key, nfseXmlGZipB64: gzipB64(nfseXml), alertas: [] } };
}

/**
 * The national rules on totTrib by the provider's Simples Nacional option: outside it (opSimpNac 1) neither "not
 * informed" (indTotTrib) nor the Simples rate (pTotTribSN), E0713; an ME/EPP in it (3) may not say "not informed",
 * E0712; a MEI (2) may.
 */
function checkApproximateTaxes(info: XmlObject, prest: XmlObject): void {
  const totTrib = childOf(childOf(childOf(info, 'valores') ?? {}, 'trib') ?? {}, 'totTrib') ?? {};
  const option = textOf(childOf(prest, 'regTrib') ?? {}, 'opSimpNac');
  const notInformed = textOf(totTrib, 'indTotTrib') !== undefined;
  if (option === '1' && (notInformed || textOf(totTrib, 'pTotTribSN') !== undefined)) reject(400, NFSE_ERRORS.approximateTaxesNotOptant);
  if (option === '3' && notInformed) reject(400, NFSE_ERRORS.approximateTaxesSimples);
}

function registerEvent(call: NfseCall, services: NfseServices, stored: ReturnType<NfseState['findByKey']> & object): Routed {
  const { nfse, clock } = services;
  const request = decodePayload(call.body, 'pedidoRegistroEventoXmlGZipB64');
  const info = childOf(validated('pedRegEvento', request), 'infPedReg') ?? {};
  const id = attributeOf(info, 'Id') ?? '';
  if (textOf(info, 'tpAmb') !== call.tpAmb) reject(400, NFSE_ERRORS.environment);
  if (textOf(info, 'chNFSe') !== stored.key) reject(400, NFSE_ERRORS.eventKey);
  const eventType =
    Object.keys(info)
      .find((name) => /^e\d{6}$/.test(name))
      ?.slice(1) ?? '';
  if (id !== `PRE${stored.key}${eventType}`) reject(400, NFSE_ERRORS.eventId);
  const author = textOf(info, 'CNPJAutor') ?? textOf(info, 'CPFAutor');
  checkSigned(services, request, id, author);
  if (eventType !== '101101') reject(400, NFSE_ERRORS.eventType, eventType);
  if (author !== stored.providerTaxId) reject(400, NFSE_ERRORS.notProvider);
  if (stored.cancelled) reject(400, NFSE_ERRORS.alreadyCancelled);

  const now = clock.now();
  const eventXml = buildSignedEvent(
    {
      key: stored.key,
      eventType,
      sequence: 1,
      processedAt: clock.stamp(now),
      dfeNumber: nfse.nextDfeNumber(),
      signedRequest: rawElement(request, 'pedRegEvento') ?? request,
    },
    services.nationalKey,
  );
  stored.cancelled = true;
  stored.events.set(`${eventType}/1`, eventXml);
  for (const party of new Set([stored.providerTaxId, stored.takerTaxId].filter((p): p is string => !!p))) {
    nfse.feed(party, { key: stored.key, documentType: 'EVENTO', eventType: 'CANCELAMENTO', xml: eventXml, generatedAt: clock.stamp(now) });
  }
  return { status: 201, body: { eventoXmlGZipB64: gzipB64(eventXml) } };
}

function distribution(call: NfseCall, services: NfseServices, nsu: number): Routed {
  const asked = call.query.get('cnpjConsulta') ?? call.transmitterTaxId ?? '';
  if (!sameCompany(asked, call.transmitterTaxId)) reject(400, NFSE_ERRORS.signerNotAuthor);
  services.nfse.countQuery(asked);
  const items = services.nfse.feedFrom(asked, nsu, call.query.get('lote') !== 'false');
  if (items.length === 0) return { status: 404, body: { StatusProcessamento: 'NENHUM_DOCUMENTO_LOCALIZADO', LoteDFe: [] } };
  return {
    status: 200,
    body: {
      StatusProcessamento: 'DOCUMENTOS_LOCALIZADOS',
      LoteDFe: items.map((i) => ({
        NSU: i.nsu,
        ChaveAcesso: i.key,
        TipoDocumento: i.documentType,
        TipoEvento: i.eventType ?? null,
        ArquivoXml: gzipB64(i.xml),
        DataHoraGeracao: i.generatedAt,
      })),
    },
  };
}
