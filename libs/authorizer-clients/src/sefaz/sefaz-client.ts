import {
  assertValid,
  buildConsSitNFe,
  buildConsStatServ,
  buildDistDFeInt,
  buildEnviNFe,
  type DistDFeQuery,
  type FederalTaxId,
  NFE_NAMESPACE,
  type NfeProtocol,
  parseRetConsSitNFe,
  parseRetConsStatServ,
  parseRetDistDFeInt,
  parseRetEnviNFe,
  parseRetEnvEvento,
  parseRetInutNFe,
  type RetConsSitNFe,
  type RetConsStatServ,
  type RetDistDFeInt,
  type RetEnviNFe,
  type RetEnvEvento,
  type RetInutNFe,
} from '@talao/fiscal-xml';
import { type AuthorizerOutcome } from '../outcome.js';
import { type FiscalEnvironment, type SefazService } from '../routing/endpoint-types.js';
import { findStateAuthorizer, resolveSefazEndpoint, type SefazEndpoint } from '../routing/resolve-sefaz-endpoint.js';
import { type RecordedExchange } from '../transport/exchange.js';
import { callHttps, type TransportTimeouts } from '../transport/https-call.js';
import { type MutualTlsAgentPool, type MutualTlsCredentials } from '../transport/mutual-tls-agents.js';
import { type PreparedCall } from '../transport/prepared-call.js';
import { buildSoapEnvelope, soapHeaders } from '../transport/soap-envelope.js';
import {
  AUTHORIZED_CODES,
  classifyConsult,
  classifyDistribution,
  classifyEvent,
  classifyInutilizacao,
  classifyStatusService,
  DENIED_CODES,
  pausedOutcome,
  rejectedOutcome,
} from './sefaz-classification.js';
import { parseRetConsReciNFe } from './ret-cons-reci-nfe.js';

/** Who calls and where: the company's certificate, its environment (from the credential) and state. */
export interface SefazCallContext {
  credentials: MutualTlsCredentials;
  environment: FiscalEnvironment;
  uf: string;
  /** Send to the state's SVC (SVC-AN / SVC-RS). */
  contingency?: boolean;
}

export interface SefazClientOptions {
  agents: MutualTlsAgentPool;
  /** Per environment, a base URL that replaces the real hosts (the simulator); see resolveSefazEndpoint. */
  baseUrlOverrides?: Partial<Record<FiscalEnvironment, string>>;
  timeouts?: Partial<TransportTimeouts>;
  /** Polling of NFeRetAutorizacao4 after an asynchronous answer (103). */
  asyncPolling?: { intervalMs: number; maxAttempts: number };
}

export interface AuthorizationResult {
  /** The lot's answer (retEnviNFe), or the receipt's (retConsReciNFe) after polling. */
  lot: { cStat: string; xMotivo: string; nRec?: string };
  /** The NF-e's protocol (authorization, denial or rejection); `rawXml` joins the signed NFe in nfeProc. */
  protocol?: NfeProtocol;
  endpoint: Pick<SefazEndpoint, 'authorizer' | 'url' | 'tpEmis'>;
}

/** What each SEFAZ operation a caller may prepare answers with. */
export interface SefazResults {
  NFeAutorizacao4: AuthorizationResult;
  NFeConsultaProtocolo4: RetConsSitNFe;
  NFeRecepcaoEvento4: RetEnvEvento;
  NFeInutilizacao4: RetInutNFe;
  NFeStatusServico4: RetConsStatServ;
  NFeDistribuicaoDFe: RetDistDFeInt;
}

export type SefazOperation = keyof SefazResults & SefazService;

/** A prepared SEFAZ call: the endpoint it was resolved to (authorizer, tpEmis) and the SOAP envelope it carries. */
export interface SefazPreparedCall<T> extends PreparedCall<T> {
  readonly operation: SefazOperation;
  readonly endpoint: SefazEndpoint;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Read<T> = (body: string) => T;
type Classify<T> = (result: T, exchanges: RecordedExchange[]) => AuthorizerOutcome<T>;
type Exchanged<T> = { ok: true; result: T } | { ok: false; outcome: AuthorizerOutcome<never> };
type Transmit<T> = (ctx: SefazCallContext, endpoint: SefazEndpoint, envelope: string) => Promise<AuthorizerOutcome<T>>;

export class SefazClient {
  /** How each operation's answer is read and classified, whether the envelope was built now or stored earlier. */
  private readonly transmitters: { [S in SefazOperation]: Transmit<SefazResults[S]> } = {
    NFeAutorizacao4: (ctx, endpoint, envelope) => this.transmitAuthorization(ctx, endpoint, envelope),
    NFeConsultaProtocolo4: this.simple(parseRetConsSitNFe, classifyConsult),
    NFeRecepcaoEvento4: this.simple(parseRetEnvEvento, classifyEvent),
    NFeInutilizacao4: this.simple(parseRetInutNFe, classifyInutilizacao),
    NFeStatusServico4: this.simple(parseRetConsStatServ, classifyStatusService),
    NFeDistribuicaoDFe: this.simple(parseRetDistDFeInt, classifyDistribution),
  };

  constructor(private readonly options: SefazClientOptions) {}

  endpoint(ctx: SefazCallContext, service: SefazService, national = false): SefazEndpoint {
    const baseUrl = this.options.baseUrlOverrides?.[ctx.environment];
    return resolveSefazEndpoint(
      { uf: ctx.uf, environment: ctx.environment, service, contingency: national ? false : ctx.contingency, national },
      baseUrl ? { baseUrl } : {},
    );
  }

  /** Resolves the endpoint once and builds the envelope once: the call sends exactly `body` there. */
  private prepare<S extends SefazOperation>(
    ctx: SefazCallContext,
    operation: S,
    dataMessage: string | { envelope: string },
    national = false,
  ): SefazPreparedCall<SefazResults[S]> {
    const endpoint = this.endpoint(ctx, operation, national);
    const body = typeof dataMessage === 'string' ? buildSoapEnvelope(endpoint, dataMessage) : dataMessage.envelope;
    const transmit = this.transmitters[operation] as Transmit<SefazResults[S]>;
    return { operation, method: 'POST', url: endpoint.url, body, endpoint, send: () => transmit(ctx, endpoint, body) };
  }

  /** One HTTP exchange; transport failures and unreadable answers become unavailable / unknown outcomes. */
  private async exchange<T>(
    ctx: SefazCallContext,
    endpoint: SefazEndpoint,
    envelope: string,
    read: Read<T>,
    exchanges: RecordedExchange[],
  ): Promise<Exchanged<T>> {
    const transport = await callHttps({
      method: 'POST',
      url: endpoint.url,
      headers: soapHeaders(endpoint),
      body: envelope,
      agent: this.options.agents.agentFor(ctx.credentials),
      timeouts: this.options.timeouts,
    });
    exchanges.push(transport.exchange);
    if (transport.kind === 'failure') {
      const outcome = transport.sent
        ? { status: 'unknown' as const, reason: transport.reason, detail: transport.detail, exchanges }
        : { status: 'unavailable' as const, reason: transport.reason, detail: transport.detail, exchanges };
      return { ok: false, outcome };
    }
    if (transport.status === 504) {
      // A gateway gave up waiting for the authorizer, which may still have processed the request.
      return { ok: false, outcome: { status: 'unknown', reason: 'gateway-timeout', detail: `HTTP 504`, exchanges } };
    }
    if (transport.status !== 200) {
      return {
        ok: false,
        outcome: {
          status: 'unavailable',
          reason: 'http-error',
          detail: `HTTP ${transport.status}: ${transport.body.slice(0, 300)}`,
          exchanges,
        },
      };
    }
    try {
      return { ok: true, result: read(transport.body) };
    } catch (error) {
      // A 200 we cannot read may carry a decision we did not see.
      return { ok: false, outcome: { status: 'unknown', reason: 'unreadable-response', detail: (error as Error).message, exchanges } };
    }
  }

  private simple<T>(read: Read<T>, classify: Classify<T>): Transmit<T> {
    return async (ctx, endpoint, envelope) => {
      const exchanges: RecordedExchange[] = [];
      const answer = await this.exchange(ctx, endpoint, envelope, read, exchanges);
      return answer.ok ? classify(answer.result, exchanges) : answer.outcome;
    };
  }

  /**
   * NFeAutorizacao4 with one signed NF-e, indSinc=1. An asynchronous answer (103) is followed by polling
   * NFeRetAutorizacao4 with the receipt; if the receipt never resolves, the outcome is unknown.
   */
  prepareAuthorization(ctx: SefazCallContext, input: { signedNfe: string; lotId: string }): SefazPreparedCall<AuthorizationResult> {
    return this.prepare(ctx, 'NFeAutorizacao4', buildEnviNFe(input));
  }

  /** NFeConsultaProtocolo4: the authorizer's record of one NF-e (reconciles unknown outcomes). */
  prepareConsult(ctx: SefazCallContext, accessKey: string): SefazPreparedCall<RetConsSitNFe> {
    return this.prepare(ctx, 'NFeConsultaProtocolo4', buildConsSitNFe({ environment: ctx.environment, accessKey }));
  }

  /**
   * NFeRecepcaoEvento4 with an envEvento holding one signed event (build it with fiscal-xml's buildEnvEvento).
   * Manifestation events go to the Ambiente Nacional (`national: true`).
   */
  prepareEvent(ctx: SefazCallContext, input: { envEvento: string; national?: boolean }): SefazPreparedCall<RetEnvEvento> {
    return this.prepare(ctx, 'NFeRecepcaoEvento4', input.envEvento, input.national === true);
  }

  /** NFeInutilizacao4 with a signed inutNFe. */
  prepareInutilization(ctx: SefazCallContext, input: { signedInutNFe: string }): SefazPreparedCall<RetInutNFe> {
    return this.prepare(ctx, 'NFeInutilizacao4', input.signedInutNFe);
  }

  /** NFeStatusServico4 of the state's authorizer (or its SVC under contingency). */
  prepareStatusService(ctx: SefazCallContext): SefazPreparedCall<RetConsStatServ> {
    const ufCode = this.endpoint(ctx, 'NFeStatusServico4').stateCode;
    return this.prepare(ctx, 'NFeStatusServico4', buildConsStatServ({ environment: ctx.environment, ufCode }));
  }

  /** NFeDistribuicaoDFe (Ambiente Nacional): documents addressed to the interested tax id. */
  prepareDistribution(ctx: SefazCallContext, input: { interested: FederalTaxId; query: DistDFeQuery }): SefazPreparedCall<RetDistDFeInt> {
    const authorUfCode = findStateAuthorizer(ctx.uf)?.code;
    const message = buildDistDFeInt({ environment: ctx.environment, authorUfCode, interested: input.interested, query: input.query });
    // Outgoing XML is checked against the official schema (distDFeInt_v1.01) before it leaves; it throws if not valid.
    assertValid('distDFeInt', message);
    return this.prepare(ctx, 'NFeDistribuicaoDFe', message, true);
  }

  /**
   * The stored envelope of an earlier call of `operation`, byte for byte, to the endpoint the context resolves to now
   * (an unknown outcome reconciled as "no record" is sent again exactly as it was stored).
   */
  prepareResend<S extends SefazOperation>(
    ctx: SefazCallContext,
    operation: S,
    storedEnvelope: string,
    national = false,
  ): SefazPreparedCall<SefazResults[S]> {
    return this.prepare(ctx, operation, { envelope: storedEnvelope }, national || operation === 'NFeDistribuicaoDFe');
  }

  authorize(ctx: SefazCallContext, input: { signedNfe: string; lotId: string }): Promise<AuthorizerOutcome<AuthorizationResult>> {
    return this.prepareAuthorization(ctx, input).send();
  }

  consultProtocol(ctx: SefazCallContext, accessKey: string): Promise<AuthorizerOutcome<RetConsSitNFe>> {
    return this.prepareConsult(ctx, accessKey).send();
  }

  sendEvent(ctx: SefazCallContext, input: { envEvento: string; national?: boolean }): Promise<AuthorizerOutcome<RetEnvEvento>> {
    return this.prepareEvent(ctx, input).send();
  }

  inutilize(ctx: SefazCallContext, input: { signedInutNFe: string }): Promise<AuthorizerOutcome<RetInutNFe>> {
    return this.prepareInutilization(ctx, input).send();
  }

  statusService(ctx: SefazCallContext): Promise<AuthorizerOutcome<RetConsStatServ>> {
    return this.prepareStatusService(ctx).send();
  }

  distribution(ctx: SefazCallContext, input: { interested: FederalTaxId; query: DistDFeQuery }): Promise<AuthorizerOutcome<RetDistDFeInt>> {
    return this.prepareDistribution(ctx, input).send();
  }

  private async transmitAuthorization(
    ctx: SefazCallContext,
    endpoint: SefazEndpoint,
    envelope: string,
  ): Promise<AuthorizerOutcome<AuthorizationResult>> {
    const exchanges: RecordedExchange[] = [];
    const where = { authorizer: endpoint.authorizer, url: endpoint.url, tpEmis: endpoint.tpEmis };
    const answer = await this.exchange<RetEnviNFe>(ctx, endpoint, envelope, parseRetEnviNFe, exchanges);
    if (!answer.ok) return answer.outcome;
    const ret = answer.result;
    const pause = pausedOutcome<AuthorizationResult>(ret.status, exchanges);
    if (pause) return pause;
    const lot = { cStat: ret.status.code, xMotivo: ret.status.message };
    if (ret.status.code === '104' && ret.protocol) return this.classifyProtocol(ret.protocol, lot, where, exchanges);
    if (ret.status.code === '103' && ret.receipt) return this.pollReceipt(ctx, ret.receipt, where, exchanges);
    return rejectedOutcome(ret.status, { lot, endpoint: where }, exchanges);
  }

  private classifyProtocol(
    prot: NfeProtocol,
    lot: AuthorizationResult['lot'],
    where: AuthorizationResult['endpoint'],
    exchanges: RecordedExchange[],
  ): AuthorizerOutcome<AuthorizationResult> {
    const result: AuthorizationResult = { lot, protocol: prot, endpoint: where };
    if (AUTHORIZED_CODES.has(prot.status.code) && prot.protocolNumber) {
      return {
        status: 'authorized',
        code: prot.status.code,
        message: prot.status.message,
        protocol: prot.protocolNumber,
        result,
        exchanges,
      };
    }
    return rejectedOutcome(prot.status, result, exchanges, DENIED_CODES.has(prot.status.code) ? prot.protocolNumber : undefined);
  }

  private async pollReceipt(
    ctx: SefazCallContext,
    nRec: string,
    where: AuthorizationResult['endpoint'],
    exchanges: RecordedExchange[],
  ): Promise<AuthorizerOutcome<AuthorizationResult>> {
    if (!/^[0-9]{15}$/.test(nRec))
      return { status: 'unknown', reason: 'unreadable-response', detail: `receipt ${nRec} is not 15 digits`, exchanges };
    const polling = this.options.asyncPolling ?? { intervalMs: 1_000, maxAttempts: 5 };
    const endpoint = this.endpoint(ctx, 'NFeRetAutorizacao4');
    const tpAmb = ctx.environment === 'production' ? '1' : '2';
    const envelope = buildSoapEnvelope(
      endpoint,
      `<consReciNFe xmlns="${NFE_NAMESPACE}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><nRec>${nRec}</nRec></consReciNFe>`,
    );
    for (let attempt = 0; attempt < polling.maxAttempts; attempt++) {
      await sleep(polling.intervalMs);
      const answer = await this.exchange(ctx, endpoint, envelope, parseRetConsReciNFe, exchanges);
      // The lot was received: whatever goes wrong now, only a consult can tell what became of it.
      if (!answer.ok)
        return {
          status: 'unknown',
          reason: answer.outcome.status === 'unknown' ? answer.outcome.reason : 'still-processing',
          detail: `polling receipt ${nRec}: ${'detail' in answer.outcome ? answer.outcome.detail : ''}`,
          exchanges,
        };
      const ret = answer.result;
      if (ret.status.code === '105') continue;
      const lot = { cStat: ret.status.code, xMotivo: ret.status.message, nRec };
      const prot = ret.protocols[0];
      if (ret.status.code === '104' && prot) return this.classifyProtocol(prot, lot, where, exchanges);
      return rejectedOutcome(ret.status, { lot, endpoint: where }, exchanges);
    }
    return {
      status: 'unknown',
      reason: 'still-processing',
      detail: `receipt ${nRec} still processing after ${polling.maxAttempts} polls`,
      exchanges,
    };
  }
}
