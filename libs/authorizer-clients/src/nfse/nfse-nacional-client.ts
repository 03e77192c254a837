import {
  type AdnDistributionBatch,
  encodeGzipBase64,
  parseAdnDistribution,
  parseSefinDpsResponse,
  parseSefinEventResponse,
  parseSefinNfseResponse,
  type SefinMessage,
} from '@talao/fiscal-xml';
import { type AuthorizerOutcome, describeOutcome } from '../outcome.js';
import { type FiscalEnvironment } from '../routing/endpoint-types.js';
import { type NfseNacionalBaseUrls, resolveNfseNacionalBaseUrls } from '../routing/nfse-nacional-endpoints.js';
import { type RecordedExchange } from '../transport/exchange.js';
import { callHttps, type HttpsCall, type TransportTimeouts } from '../transport/https-call.js';
import { type MutualTlsAgentPool, type MutualTlsCredentials } from '../transport/mutual-tls-agents.js';
import { type PreparedCall } from '../transport/prepared-call.js';

export interface NfseCallContext {
  credentials: MutualTlsCredentials;
  environment: FiscalEnvironment;
}

export interface NfseNacionalClientOptions {
  agents: MutualTlsAgentPool;
  /** Per environment, a base URL replacing the real hosts (the simulator); see resolveNfseNacionalBaseUrls. */
  baseUrlOverrides?: Partial<Record<FiscalEnvironment, string>>;
  timeouts?: Partial<TransportTimeouts>;
}

export interface IssuedNfse {
  accessKey: string;
  dpsId?: string;
  /** The NFS-e XML as returned (gunzipped). */
  nfseXml?: string;
  processedAt?: string;
  alerts: readonly SefinMessage[];
}

/** The answer body (JSON text, or the PDF as base64 for DANFSe) and its HTTP status. */
type Interpret<T> = (status: number, body: string, exchanges: RecordedExchange[]) => AuthorizerOutcome<T>;

const KEY = /^[0-9]{50}$/;
const DPS_ID = /^DPS[0-9]{42}$/;

/** The national API's own error (first of `erros`, or `erro`), or the HTTP status when the body has none. */
function rejectedFrom<T>(status: number, body: string, exchanges: RecordedExchange[]): AuthorizerOutcome<T> {
  let first: SefinMessage | undefined;
  try {
    const parsed = parseSefinEventResponse(body);
    first = parsed.ok ? undefined : parsed.errors[0];
  } catch {
    first = undefined;
  }
  return { status: 'rejected', code: first?.code || String(status), message: first?.description || `HTTP ${status}`, exchanges };
}

/**
 * The answer to an event call (registration, 201, or lookup, 200): the registered event's XML, its Id (EVT…) as the
 * protocol. Any other status, or a body without the event, is the national API's rejection.
 */
function eventAnswer(expectedStatus: 200 | 201, message: string): Interpret<{ eventXml?: string }> {
  return (status, text, exchanges) => {
    if (status !== expectedStatus) return rejectedFrom(status, text, exchanges);
    const answer = parseSefinEventResponse(text);
    if (!answer.ok) return rejectedFrom(status, text, exchanges);
    const id = /Id="(EVT[0-9]+)"/.exec(answer.eventXml)?.[1];
    return {
      status: 'accepted',
      code: String(expectedStatus),
      message,
      ...(id ? { protocol: id } : {}),
      result: { eventXml: answer.eventXml },
      exchanges,
    };
  };
}

/** The routes as recorded with each call (`operation`); the path's key or id is in the call's URL. */
export const NFSE_OPERATIONS = {
  emission: 'POST /nfse',
  fetch: 'GET /nfse',
  dpsLookup: 'GET /dps',
  dpsHead: 'HEAD /dps',
  event: 'POST /nfse/eventos',
  eventLookup: 'GET /nfse/eventos',
  danfse: 'GET /danfse',
  distribution: 'GET /contribuintes/DFe',
} as const;

type Route = Omit<HttpsCall, 'agent' | 'headers' | 'body'> & { operation: string; body?: string };

export class NfseNacionalClient {
  constructor(private readonly options: NfseNacionalClientOptions) {}

  baseUrls(environment: FiscalEnvironment): NfseNacionalBaseUrls {
    const baseUrl = this.options.baseUrlOverrides?.[environment];
    return resolveNfseNacionalBaseUrls(environment, baseUrl ? { baseUrl } : {});
  }

  /** The call with its URL and body decided now; `send` transmits exactly them. */
  private prepare<T>(ctx: NfseCallContext, route: Route, interpret: Interpret<T>, pdf = false): PreparedCall<T> {
    const { operation, ...request } = route;
    return {
      operation,
      method: request.method,
      url: request.url,
      body: request.body ?? '',
      send: () => this.call(ctx, request, interpret, pdf),
    };
  }

  private async call<T>(
    ctx: NfseCallContext,
    request: Omit<HttpsCall, 'agent' | 'headers'>,
    interpret: Interpret<T>,
    pdf: boolean,
  ): Promise<AuthorizerOutcome<T>> {
    const exchanges: RecordedExchange[] = [];
    const headers: Record<string, string> = { accept: pdf ? 'application/pdf' : 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const transport = await callHttps({
      ...request,
      headers,
      agent: this.options.agents.agentFor(ctx.credentials),
      timeouts: this.options.timeouts,
    });
    exchanges.push(transport.exchange);
    if (transport.kind === 'failure') {
      return transport.sent
        ? { status: 'unknown', reason: transport.reason, detail: transport.detail, exchanges }
        : { status: 'unavailable', reason: transport.reason, detail: transport.detail, exchanges };
    }
    if (transport.status === 504) return { status: 'unknown', reason: 'gateway-timeout', detail: 'HTTP 504', exchanges };
    if (transport.status >= 500)
      return {
        status: 'unavailable',
        reason: 'http-error',
        detail: `HTTP ${transport.status}: ${transport.body.slice(0, 300)}`,
        exchanges,
      };
    try {
      return interpret(transport.status, transport.body, exchanges);
    } catch (error) {
      // A success we cannot read may carry a decision we did not see.
      return { status: 'unknown', reason: 'unreadable-response', detail: (error as Error).message, exchanges };
    }
  }

  /** POST /nfse: the signed DPS (gzip+base64) becomes an NFS-e synchronously (201) or is refused (400/403). */
  prepareEmission(ctx: NfseCallContext, input: { signedDps: string }): PreparedCall<IssuedNfse> {
    return this.prepareEmissionBody(ctx, JSON.stringify({ dpsXmlGZipB64: encodeGzipBase64(input.signedDps) }));
  }

  /** The stored body of an earlier POST /nfse, byte for byte (an unknown outcome reconciled as "no NFS-e"). */
  prepareEmissionResend(ctx: NfseCallContext, storedBody: string): PreparedCall<IssuedNfse> {
    return this.prepareEmissionBody(ctx, storedBody);
  }

  private prepareEmissionBody(ctx: NfseCallContext, body: string): PreparedCall<IssuedNfse> {
    const url = `${this.baseUrls(ctx.environment).sefin}/nfse`;
    return this.prepare(ctx, { operation: NFSE_OPERATIONS.emission, method: 'POST', url, body }, (status, text, exchanges) => {
      if (status !== 201) return rejectedFrom(status, text, exchanges);
      const answer = parseSefinNfseResponse(text);
      if (!answer.ok) return rejectedFrom(status, text, exchanges);
      if (!KEY.test(answer.accessKey)) throw new Error('201 without a 50-digit chaveAcesso');
      const result: IssuedNfse = {
        accessKey: answer.accessKey,
        dpsId: answer.dpsId,
        nfseXml: answer.nfseXml,
        processedAt: answer.processedAt,
        alerts: answer.alerts,
      };
      return { status: 'authorized', code: '201', message: 'NFS-e gerada', protocol: answer.accessKey, result, exchanges };
    });
  }

  /** GET /nfse/{chaveAcesso}. */
  prepareNfseFetch(ctx: NfseCallContext, accessKey: string): PreparedCall<IssuedNfse> {
    if (!KEY.test(accessKey)) throw new Error('accessKey: expected 50 digits');
    const url = `${this.baseUrls(ctx.environment).sefin}/nfse/${accessKey}`;
    return this.prepare(ctx, { operation: NFSE_OPERATIONS.fetch, method: 'GET', url }, (status, text, exchanges) => {
      if (status !== 200) return rejectedFrom(status, text, exchanges);
      const answer = parseSefinNfseResponse(text);
      if (!answer.ok) return rejectedFrom(status, text, exchanges);
      const result: IssuedNfse = { accessKey, nfseXml: answer.nfseXml, processedAt: answer.processedAt, alerts: answer.alerts };
      return { status: 'accepted', code: '200', message: 'NFS-e localizada', protocol: accessKey, result, exchanges };
    });
  }

  /**
   * GET /dps/{id} (HEAD with `headOnly`): whether an NFS-e exists for the DPS, and its key. This reconciles an
   * unknown outcome of an emission: accepted = issued; rejected 404 = not issued, safe to send again (readDpsRecord).
   */
  prepareDpsLookup(ctx: NfseCallContext, dpsId: string, headOnly = false): PreparedCall<DpsLookup> {
    if (!DPS_ID.test(dpsId)) throw new Error('dpsId: expected DPS + 42 digits');
    const method = headOnly ? 'HEAD' : 'GET';
    const operation = headOnly ? NFSE_OPERATIONS.dpsHead : NFSE_OPERATIONS.dpsLookup;
    return this.prepare(
      ctx,
      { operation, method, url: `${this.baseUrls(ctx.environment).sefin}/dps/${dpsId}` },
      (status, text, exchanges) => {
        if (status !== 200) return rejectedFrom(status, text, exchanges);
        // HEAD has no body: the status alone says the DPS became an NFS-e.
        const accessKey = headOnly ? undefined : parseSefinDpsResponse(text).accessKey;
        return {
          status: 'accepted',
          code: '200',
          message: 'DPS localizada',
          ...(accessKey ? { protocol: accessKey } : {}),
          result: { dpsId, accessKey },
          exchanges,
        };
      },
    );
  }

  /** POST /nfse/{chaveAcesso}/eventos with a signed pedRegEvento (cancellation e101101, …). */
  prepareEvent(ctx: NfseCallContext, input: { accessKey: string; signedEventRequest: string }): PreparedCall<{ eventXml?: string }> {
    const body = JSON.stringify({ pedidoRegistroEventoXmlGZipB64: encodeGzipBase64(input.signedEventRequest) });
    return this.prepareEventResend(ctx, input.accessKey, body);
  }

  /** The stored body of an earlier POST /nfse/{key}/eventos, byte for byte (after a lookup found no event). */
  prepareEventResend(ctx: NfseCallContext, accessKey: string, body: string): PreparedCall<{ eventXml?: string }> {
    if (!KEY.test(accessKey)) throw new Error('accessKey: expected 50 digits');
    const url = `${this.baseUrls(ctx.environment).sefin}/nfse/${accessKey}/eventos`;
    return this.prepare(ctx, { operation: NFSE_OPERATIONS.event, method: 'POST', url, body }, eventAnswer(201, 'Evento registrado'));
  }

  /**
   * GET /nfse/{chaveAcesso}/eventos/{tipoEvento}/{numSeqEvento}: the registered event, reconciling an event whose
   * answer was lost. Accepted = registered (its XML); rejected with HTTP 404 = not registered (readNfseEventRecord).
   */
  prepareEventLookup(
    ctx: NfseCallContext,
    input: { accessKey: string; eventType: string; sequence: number },
  ): PreparedCall<{ eventXml?: string }> {
    if (!KEY.test(input.accessKey)) throw new Error('accessKey: expected 50 digits');
    if (!/^[0-9]{6}$/.test(input.eventType)) throw new Error('eventType: expected 6 digits');
    const url = `${this.baseUrls(ctx.environment).sefin}/nfse/${input.accessKey}/eventos/${input.eventType}/${input.sequence}`;
    return this.prepare(ctx, { operation: NFSE_OPERATIONS.eventLookup, method: 'GET', url }, eventAnswer(200, 'Evento localizado'));
  }

  /** GET {adn}/danfse/{chaveAcesso}: the official DANFSe PDF (base64 in the result and in the recorded exchange). */
  prepareDanfse(ctx: NfseCallContext, accessKey: string): PreparedCall<{ pdfBase64: string }> {
    if (!KEY.test(accessKey)) throw new Error('accessKey: expected 50 digits');
    const url = `${this.baseUrls(ctx.environment).adn}/danfse/${accessKey}`;
    return this.prepare(
      ctx,
      { operation: NFSE_OPERATIONS.danfse, method: 'GET', url, binaryResponse: true },
      (status, text, exchanges) => {
        if (status !== 200) return rejectedFrom(status, Buffer.from(text, 'base64').toString('utf8'), exchanges);
        if (!Buffer.from(text, 'base64').subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('DANFSe is not a PDF');
        return { status: 'accepted', code: '200', message: 'DANFSe', result: { pdfBase64: text }, exchanges };
      },
      true,
    );
  }

  /** GET {adn}/contribuintes/DFe/{NSU}: documents of the company from an NSU on (404 with no document is an answer). */
  prepareDistribution(
    ctx: NfseCallContext,
    input: { nsu: number; cnpjConsulta?: string; batch?: boolean },
  ): PreparedCall<AdnDistributionBatch> {
    const query = new URLSearchParams();
    if (input.cnpjConsulta) query.set('cnpjConsulta', input.cnpjConsulta);
    query.set('lote', String(input.batch ?? true));
    const url = `${this.baseUrls(ctx.environment).adn}/contribuintes/DFe/${Math.trunc(input.nsu)}?${query}`;
    return this.prepare(ctx, { operation: NFSE_OPERATIONS.distribution, method: 'GET', url }, (status, text, exchanges) => {
      if (status !== 200 && status !== 404) return rejectedFrom(status, text, exchanges);
      const batch = parseAdnDistribution(text);
      if (batch.status === 'REJEICAO') {
        const first = batch.errors[0];
        return {
          status: 'rejected',
          code: first?.code || batch.status,
          message: first?.description || batch.status,
          result: batch,
          exchanges,
        };
      }
      return { status: 'accepted', code: batch.status, message: batch.status, result: batch, exchanges };
    });
  }

  emitDps(ctx: NfseCallContext, input: { signedDps: string }): Promise<AuthorizerOutcome<IssuedNfse>> {
    return this.prepareEmission(ctx, input).send();
  }

  getNfse(ctx: NfseCallContext, accessKey: string): Promise<AuthorizerOutcome<IssuedNfse>> {
    return this.prepareNfseFetch(ctx, accessKey).send();
  }

  findDps(ctx: NfseCallContext, dpsId: string, headOnly = false): Promise<AuthorizerOutcome<DpsLookup>> {
    return this.prepareDpsLookup(ctx, dpsId, headOnly).send();
  }

  sendEvent(
    ctx: NfseCallContext,
    input: { accessKey: string; signedEventRequest: string },
  ): Promise<AuthorizerOutcome<{ eventXml?: string }>> {
    return this.prepareEvent(ctx, input).send();
  }

  getDanfse(ctx: NfseCallContext, accessKey: string): Promise<AuthorizerOutcome<{ pdfBase64: string }>> {
    return this.prepareDanfse(ctx, accessKey).send();
  }

  distribution(
    ctx: NfseCallContext,
    input: { nsu: number; cnpjConsulta?: string; batch?: boolean },
  ): Promise<AuthorizerOutcome<AdnDistributionBatch>> {
    return this.prepareDistribution(ctx, input).send();
  }
}

export interface DpsLookup {
  dpsId: string;
  accessKey?: string;
}

/**
 * What the national environment holds for a DPS, read from a GET /dps/{id} outcome:
 * - `found`: an NFS-e exists, with its key;
 * - `absent`: 404, no NFS-e for that DPS: the same DPS may be sent again;
 * - `inconclusive`: the lookup could not tell.
 */
export type DpsRecord =
  { kind: 'found'; accessKey: string; code: string; message: string } | { kind: 'absent' } | { kind: 'inconclusive'; detail: string };

export function readDpsRecord(outcome: AuthorizerOutcome<DpsLookup>): DpsRecord {
  if (outcome.status === 'accepted' || outcome.status === 'authorized') {
    const accessKey = outcome.result.accessKey;
    if (!accessKey) return { kind: 'inconclusive', detail: `DPS ${outcome.result.dpsId} found without its NFS-e key` };
    return { kind: 'found', accessKey, code: outcome.code, message: outcome.message };
  }
  if (outcome.status === 'rejected' && outcome.exchanges.at(-1)?.response?.status === 404) return { kind: 'absent' };
  return { kind: 'inconclusive', detail: describeOutcome(outcome) };
}
