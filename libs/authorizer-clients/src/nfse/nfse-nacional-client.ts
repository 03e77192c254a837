import {
  type AdnDistributionBatch, encodeGzipBase64, parseAdnDistribution, parseSefinDpsResponse, parseSefinEventResponse, parseSefinNfseResponse,
  type SefinMessage,
} from '@talao/fiscal-xml';
import { type AuthorizerOutcome } from '../outcome.js';
import { type FiscalEnvironment } from '../routing/endpoint-types.js';
import { type NfseNacionalBaseUrls, resolveNfseNacionalBaseUrls } from '../routing/nfse-nacional-endpoints.js';
import { type RecordedExchange } from '../transport/exchange.js';
import { callHttps, type HttpsCall, type TransportTimeouts } from '../transport/https-call.js';
import { type MutualTlsAgentPool, type MutualTlsCredentials } from '../transport/mutual-tls-agents.js';

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

export class NfseNacionalClient {
  constructor(private readonly options: NfseNacionalClientOptions) {}

  baseUrls(environment: FiscalEnvironment): NfseNacionalBaseUrls {
    const baseUrl = this.options.baseUrlOverrides?.[environment];
    return resolveNfseNacionalBaseUrls(environment, baseUrl ? { baseUrl } : {});
  }

  private async call<T>(ctx: NfseCallContext, request: Omit<HttpsCall, 'agent' | 'headers'>, interpret: Interpret<T>, pdf = false): Promise<AuthorizerOutcome<T>> {
    const exchanges: RecordedExchange[] = [];
    const headers: Record<string, string> = { accept: pdf ? 'application/pdf' : 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const transport = await callHttps({ ...request, headers, agent: this.options.agents.agentFor(ctx.credentials), timeouts: this.options.timeouts });
    exchanges.push(transport.exchange);
    if (transport.kind === 'failure') {
      return transport.sent
        ? { status: 'unknown', reason: transport.reason, detail: transport.detail, exchanges }
        : { status: 'unavailable', reason: transport.reason, detail: transport.detail, exchanges };
    }
    if (transport.status === 504) return { status: 'unknown', reason: 'gateway-timeout', detail: 'HTTP 504', exchanges };
    if (transport.status >= 500) return { status: 'unavailable', reason: 'http-error', detail: `HTTP ${transport.status}: ${transport.body.slice(0, 300)}`, exchanges };
    try {
      return interpret(transport.status, transport.body, exchanges);
    } catch (error) {
      // A success we cannot read may carry a decision we did not see.
      return { status: 'unknown', reason: 'unreadable-response', detail: (error as Error).message, exchanges };
    }
  }

  /** POST /nfse: the signed DPS (gzip+base64) becomes an NFS-e synchronously (201) or is refused (400/403). */
  emitDps(ctx: NfseCallContext, input: { signedDps: string }): Promise<AuthorizerOutcome<IssuedNfse>> {
    const body = JSON.stringify({ dpsXmlGZipB64: encodeGzipBase64(input.signedDps) });
    return this.call(ctx, { method: 'POST', url: `${this.baseUrls(ctx.environment).sefin}/nfse`, body }, (status, text, exchanges) => {
      if (status !== 201) return rejectedFrom(status, text, exchanges);
      const answer = parseSefinNfseResponse(text);
      if (!answer.ok) return rejectedFrom(status, text, exchanges);
      if (!KEY.test(answer.accessKey)) throw new Error('201 without a 50-digit chaveAcesso');
      const result: IssuedNfse = { accessKey: answer.accessKey, dpsId: answer.dpsId, nfseXml: answer.nfseXml, processedAt: answer.processedAt, alerts: answer.alerts };
      return { status: 'authorized', code: '201', message: 'NFS-e gerada', protocol: answer.accessKey, result, exchanges };
    });
  }

  /** GET /nfse/{chaveAcesso}. */
  getNfse(ctx: NfseCallContext, accessKey: string): Promise<AuthorizerOutcome<IssuedNfse>> {
    if (!KEY.test(accessKey)) throw new Error('accessKey: expected 50 digits');
    return this.call(ctx, { method: 'GET', url: `${this.baseUrls(ctx.environment).sefin}/nfse/${accessKey}` }, (status, text, exchanges) => {
      if (status !== 200) return rejectedFrom(status, text, exchanges);
      const answer = parseSefinNfseResponse(text);
      if (!answer.ok) return rejectedFrom(status, text, exchanges);
      const result: IssuedNfse = { accessKey, nfseXml: answer.nfseXml, processedAt: answer.processedAt, alerts: answer.alerts };
      return { status: 'accepted', code: '200', message: 'NFS-e localizada', protocol: accessKey, result, exchanges };
    });
  }

  /**
   * GET /dps/{id} (HEAD with `headOnly`): whether an NFS-e exists for the DPS, and its key. This reconciles an
   * unknown outcome of emitDps: accepted = issued; rejected 404 = not issued, safe to send again.
   */
  findDps(ctx: NfseCallContext, dpsId: string, headOnly = false): Promise<AuthorizerOutcome<{ dpsId: string; accessKey?: string }>> {
    if (!DPS_ID.test(dpsId)) throw new Error('dpsId: expected DPS + 42 digits');
    const method = headOnly ? 'HEAD' : 'GET';
    return this.call(ctx, { method, url: `${this.baseUrls(ctx.environment).sefin}/dps/${dpsId}` }, (status, text, exchanges) => {
      if (status !== 200) return rejectedFrom(status, text, exchanges);
      // HEAD has no body: the status alone says the DPS became an NFS-e.
      const accessKey = headOnly ? undefined : parseSefinDpsResponse(text).accessKey;
      return { status: 'accepted', code: '200', message: 'DPS localizada', ...(accessKey ? { protocol: accessKey } : {}), result: { dpsId, accessKey }, exchanges };
    });
  }

  /** POST /nfse/{chaveAcesso}/eventos with a signed pedRegEvento (cancellation e101101, …). */
  sendEvent(ctx: NfseCallContext, input: { accessKey: string; signedEventRequest: string }): Promise<AuthorizerOutcome<{ eventXml?: string }>> {
    if (!KEY.test(input.accessKey)) throw new Error('accessKey: expected 50 digits');
    const body = JSON.stringify({ pedidoRegistroEventoXmlGZipB64: encodeGzipBase64(input.signedEventRequest) });
    return this.call(ctx, { method: 'POST', url: `${this.baseUrls(ctx.environment).sefin}/nfse/${input.accessKey}/eventos`, body }, (status, text, exchanges) => {
      if (status !== 201) return rejectedFrom(status, text, exchanges);
      const answer = parseSefinEventResponse(text);
      if (!answer.ok) return rejectedFrom(status, text, exchanges);
      const id = /Id="(EVT[0-9]+)"/.exec(answer.eventXml)?.[1];
      return { status: 'accepted', code: '201', message: 'Evento registrado', ...(id ? { protocol: id } : {}), result: { eventXml: answer.eventXml }, exchanges };
    });
  }

  /** GET {adn}/danfse/{chaveAcesso}: the official DANFSe PDF (base64 in the result and in the recorded exchange). */
  getDanfse(ctx: NfseCallContext, accessKey: string): Promise<AuthorizerOutcome<{ pdfBase64: string }>> {
    if (!KEY.test(accessKey)) throw new Error('accessKey: expected 50 digits');
    return this.call(
      ctx,
      { method: 'GET', url: `${this.baseUrls(ctx.environment).adn}/danfse/${accessKey}`, binaryResponse: true },
      (status, text, exchanges) => {
        if (status !== 200) return rejectedFrom(status, Buffer.from(text, 'base64').toString('utf8'), exchanges);
        if (!Buffer.from(text, 'base64').subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('DANFSe is not a PDF');
        return { status: 'accepted', code: '200', message: 'DANFSe', result: { pdfBase64: text }, exchanges };
      },
      true,
    );
  }

  /** GET {adn}/contribuintes/DFe/{NSU}: documents of the company from an NSU on (404 with no document is an answer). */
  distribution(ctx: NfseCallContext, input: { nsu: number; cnpjConsulta?: string; batch?: boolean }): Promise<AuthorizerOutcome<AdnDistributionBatch>> {
    const query = new URLSearchParams();
    if (input.cnpjConsulta) query.set('cnpjConsulta', input.cnpjConsulta);
    query.set('lote', String(input.batch ?? true));
    const url = `${this.baseUrls(ctx.environment).adn}/contribuintes/DFe/${Math.trunc(input.nsu)}?${query}`;
    return this.call(ctx, { method: 'GET', url }, (status, text, exchanges) => {
      if (status !== 200 && status !== 404) return rejectedFrom(status, text, exchanges);
      const batch = parseAdnDistribution(text);
      if (batch.status === 'REJEICAO') {
        const first = batch.errors[0];
        return { status: 'rejected', code: first?.code || batch.status, message: first?.description || batch.status, result: batch, exchanges };
      }
      return { status: 'accepted', code: batch.status, message: batch.status, result: batch, exchanges };
    });
  }
}
