import { type AuthorizerOutcome } from '../outcome.js';
import { type FiscalEnvironment } from '../routing/endpoint-types.js';
import { type NfseNacionalBaseUrls, resolveNfseNacionalBaseUrls } from '../routing/nfse-nacional-endpoints.js';
import { type RecordedExchange } from '../transport/exchange.js';
import { callHttps, type HttpsCall, type TransportTimeouts } from '../transport/https-call.js';
import { type MutualTlsAgentPool, type MutualTlsCredentials } from '../transport/mutual-tls-agents.js';
import { gunzipBase64, gzipBase64, type NfseMessage, parseJsonObject, readNfseErrors } from './nfse-payloads.js';

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
  alerts: NfseMessage[];
}

export interface DistributedNfseDocument {
  nsu: number;
  accessKey?: string;
  documentType?: string;
  eventType?: string;
  xml: string;
  generatedAt?: string;
}

export interface NfseDistributionResult {
  processingStatus: string;
  documents: DistributedNfseDocument[];
}

type JsonBody = Record<string, unknown>;
type Interpret<T> = (status: number, body: JsonBody, exchanges: RecordedExchange[]) => AuthorizerOutcome<T>;

const KEY = /^[0-9]{50}$/;
const DPS_ID = /^DPS[0-9]{42}$/;

function str(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

function rejectedFrom<T>(status: number, body: JsonBody, exchanges: RecordedExchange[]): AuthorizerOutcome<T> {
  const first = readNfseErrors(body)[0];
  return { status: 'rejected', code: first?.code || String(status), message: first?.description || `HTTP ${status}`, exchanges };
}

export class NfseNacionalClient {
  constructor(private readonly options: NfseNacionalClientOptions) {}

  baseUrls(environment: FiscalEnvironment): NfseNacionalBaseUrls {
    const baseUrl = this.options.baseUrlOverrides?.[environment];
    return resolveNfseNacionalBaseUrls(environment, baseUrl ? { baseUrl } : {});
  }

  private async call<T>(ctx: NfseCallContext, request: Omit<HttpsCall, 'agent' | 'headers'>, interpret: Interpret<T>, raw = false): Promise<AuthorizerOutcome<T>> {
    const exchanges: RecordedExchange[] = [];
    const headers: Record<string, string> = { accept: raw ? 'application/pdf' : 'application/json' };
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
    let body: JsonBody = {};
    try {
      if (raw && transport.status === 200) body = { pdfBase64: transport.body };
      else if (transport.body.trim() !== '') body = parseJsonObject(transport.body);
    } catch (error) {
      if (transport.status < 300) return { status: 'unknown', reason: 'unreadable-response', detail: (error as Error).message, exchanges };
    }
    try {
      return interpret(transport.status, body, exchanges);
    } catch (error) {
      return { status: 'unknown', reason: 'unreadable-response', detail: (error as Error).message, exchanges };
    }
  }

  /** POST /nfse: the signed DPS (gzip+base64) becomes an NFS-e synchronously (201) or is refused (400/403). */
  emitDps(ctx: NfseCallContext, input: { signedDps: string }): Promise<AuthorizerOutcome<IssuedNfse>> {
    const body = JSON.stringify({ dpsXmlGZipB64: gzipBase64(input.signedDps) });
    return this.call(ctx, { method: 'POST', url: `${this.baseUrls(ctx.environment).sefin}/nfse`, body }, (status, json, exchanges) => {
      if (status !== 201) return rejectedFrom(status, json, exchanges);
      const accessKey = str(json['chaveAcesso']);
      if (!accessKey || !KEY.test(accessKey)) throw new Error('201 without a 50-digit chaveAcesso');
      const nfse = str(json['nfseXmlGZipB64']);
      const result: IssuedNfse = {
        accessKey,
        dpsId: str(json['idDps']),
        nfseXml: nfse ? gunzipBase64(nfse) : undefined,
        processedAt: str(json['dataHoraProcessamento']),
        alerts: readNfseErrors({ erros: json['alertas'] }),
      };
      return { status: 'authorized', code: String(status), message: 'NFS-e gerada', protocol: accessKey, result, exchanges };
    });
  }

  /** GET /nfse/{chaveAcesso}. */
  getNfse(ctx: NfseCallContext, accessKey: string): Promise<AuthorizerOutcome<IssuedNfse>> {
    if (!KEY.test(accessKey)) throw new Error('accessKey: expected 50 digits');
    return this.call(ctx, { method: 'GET', url: `${this.baseUrls(ctx.environment).sefin}/nfse/${accessKey}` }, (status, json, exchanges) => {
      if (status !== 200) return rejectedFrom(status, json, exchanges);
      const nfse = str(json['nfseXmlGZipB64']);
      const result: IssuedNfse = { accessKey, nfseXml: nfse ? gunzipBase64(nfse) : undefined, processedAt: str(json['dataHoraProcessamento']), alerts: [] };
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
    return this.call(ctx, { method, url: `${this.baseUrls(ctx.environment).sefin}/dps/${dpsId}` }, (status, json, exchanges) => {
      if (status !== 200) return rejectedFrom(status, json, exchanges);
      const accessKey = str(json['chaveAcesso']);
      return { status: 'accepted', code: '200', message: 'DPS localizada', ...(accessKey ? { protocol: accessKey } : {}), result: { dpsId, accessKey }, exchanges };
    });
  }

  /** POST /nfse/{chaveAcesso}/eventos with a signed pedRegEvento (cancellation e101101, …). */
  sendEvent(ctx: NfseCallContext, input: { accessKey: string; signedEventRequest: string }): Promise<AuthorizerOutcome<{ eventXml?: string }>> {
    if (!KEY.test(input.accessKey)) throw new Error('accessKey: expected 50 digits');
    const body = JSON.stringify({ pedidoRegistroEventoXmlGZipB64: gzipBase64(input.signedEventRequest) });
    return this.call(ctx, { method: 'POST', url: `${this.baseUrls(ctx.environment).sefin}/nfse/${input.accessKey}/eventos`, body }, (status, json, exchanges) => {
      if (status !== 201) return rejectedFrom(status, json, exchanges);
      const event = str(json['eventoXmlGZipB64']);
      const eventXml = event ? gunzipBase64(event) : undefined;
      const id = eventXml ? /Id="(EVT[0-9]+)"/.exec(eventXml)?.[1] : undefined;
      return { status: 'accepted', code: '201', message: 'Evento registrado', ...(id ? { protocol: id } : {}), result: { eventXml }, exchanges };
    });
  }

  /** GET {adn}/danfse/{chaveAcesso}: the official DANFSe PDF (base64 in the result and in the recorded exchange). */
  getDanfse(ctx: NfseCallContext, accessKey: string): Promise<AuthorizerOutcome<{ pdfBase64: string }>> {
    if (!KEY.test(accessKey)) throw new Error('accessKey: expected 50 digits');
    return this.call(
      ctx,
      { method: 'GET', url: `${this.baseUrls(ctx.environment).adn}/danfse/${accessKey}`, binaryResponse: true },
      (status, json, exchanges) => {
        if (status !== 200) return rejectedFrom(status, json, exchanges);
        return { status: 'accepted', code: '200', message: 'DANFSe', result: { pdfBase64: String(json['pdfBase64']) }, exchanges };
      },
      true,
    );
  }

  /** GET {adn}/contribuintes/DFe/{NSU}: documents of the company from an NSU on. */
  distribution(ctx: NfseCallContext, input: { nsu: number; cnpjConsulta?: string; batch?: boolean }): Promise<AuthorizerOutcome<NfseDistributionResult>> {
    const query = new URLSearchParams();
    if (input.cnpjConsulta) query.set('cnpjConsulta', input.cnpjConsulta);
    query.set('lote', String(input.batch ?? true));
    const url = `${this.baseUrls(ctx.environment).adn}/contribuintes/DFe/${Math.trunc(input.nsu)}?${query}`;
    return this.call(ctx, { method: 'GET', url }, (status, json, exchanges) => {
      const processingStatus = String(json['StatusProcessamento'] ?? '');
      if (processingStatus === 'REJEICAO' || (status !== 200 && status !== 404) || processingStatus === '') return rejectedFrom(status, json, exchanges);
      const lot = Array.isArray(json['LoteDFe']) ? (json['LoteDFe'] as Record<string, unknown>[]) : [];
      const documents = lot.map((d) => ({
        nsu: Number(d['NSU']),
        accessKey: str(d['ChaveAcesso']),
        documentType: str(d['TipoDocumento']),
        eventType: str(d['TipoEvento']),
        xml: gunzipBase64(String(d['ArquivoXml'] ?? '')),
        generatedAt: str(d['DataHoraGeracao']),
      }));
      return { status: 'accepted', code: processingStatus, message: processingStatus, result: { processingStatus, documents }, exchanges };
    });
  }
}
