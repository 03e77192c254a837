import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { type TestCertificateAuthority } from '@talao/icp-test-ca';
import { CSTAT_MESSAGES } from '../responses/generated/cstat-messages.js';
import { type SimServices } from '../sefaz/sefaz-context.js';
import { registerThirdPartyNfe } from '../sefaz/third-party.js';
import { cancelThirdPartyNfe } from '../sefaz/third-party-events.js';
import { generateThirdPartyNfe } from '../sefaz/third-party-nfe.js';
import { nfeProc } from '../sefaz/document-views.js';
import { type FaultSettings } from './fault-settings.js';
import { issuedBy } from './issued-view.js';

const MAX_CONTROL_BODY = 64 * 1024;

type Json = Record<string, unknown>;

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<Json> {
  const raw = await getRawBody(req, { limit: MAX_CONTROL_BODY }).catch((error: { status?: number }) => {
    throw new ControlError(error.status === 413 ? 413 : 400, error.status === 413 ? 'body too large' : 'unreadable body');
  });
  if (raw.length === 0) return {};
  const value: unknown = JSON.parse(raw.toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ControlError(400, 'expected a JSON object');
  return value as Json;
}

function faultSettings(body: Json): FaultSettings {
  const settings: FaultSettings = {};
  const int = (name: string) => {
    const v = body[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new ControlError(400, `${name}: expected a non-negative integer`);
    return v;
  };
  const bool = (name: string) => {
    const v = body[name];
    if (v !== undefined && typeof v !== 'boolean') throw new ControlError(400, `${name}: expected a boolean`);
    return v as boolean | undefined;
  };
  settings.latencyMs = int('latencyMs');
  settings.outage = bool('outage');
  settings.paused = bool('paused');
  settings.hang = bool('hang');
  settings.dropResponses = int('dropResponses');
  const dropRate = body['dropRate'];
  if (dropRate !== undefined) {
    if (typeof dropRate !== 'number' || !(dropRate >= 0 && dropRate <= 1))
      throw new ControlError(400, 'dropRate: expected a number from 0 to 1');
    settings.dropRate = dropRate;
  }
  settings.asyncAnswers = int('asyncAnswers');
  const forced = body['forceRejection'];
  if (forced !== undefined) {
    const f = forced as Json;
    const code = typeof f === 'object' && f !== null ? f['code'] : undefined;
    // SEFAZ codes must have an official text; NFS-e codes (E…, for SEFIN) are free.
    if (typeof code !== 'string' || !(/^\d{3}$/.test(code) ? code in CSTAT_MESSAGES : /^[A-Z][A-Z0-9]{2,7}$/.test(code))) {
      throw new ControlError(400, 'forceRejection.code: expected a cStat of cstat.json or an NFS-e error code');
    }
    settings.forceRejection = { code, remaining: typeof f['count'] === 'number' ? f['count'] : 1 };
  }
  return settings;
}

/**
 * The control API for tests and demos (plain HTTP, bound to loopback by default, bearer token). It changes the
 * simulator's behaviour, never its rules.
 *   GET  /_control/health                     liveness (no token needed); with the token, also the clock offset
 *   GET  /_control/ca                         the test CA certificate (PEM) to trust the simulator
 *   POST /_control/certificates               { taxId, legalName, password, notAfter? } → { pkcs12Base64 }
 *   PUT  /_control/faults/{authorizer|*}      FaultSettings (latencyMs, outage, paused, hang, dropResponses,
 *                                             dropRate (0..1), asyncAnswers, forceRejection { code, count })
 *   GET  /_control/faults                     { faults, droppedAnswers }: the settings and the answers lost so far
 *   DELETE /_control/faults                   clears every fault
 *   PUT  /_control/clock                      { offsetMs }
 *   POST /_control/third-party-documents      { signedNfe, environment? } → an NF-e another company issued to a tax id,
 *                                             or { recipientTaxId, issuerTaxId?, value?, count?, environment? } to have
 *                                             the simulator issue them: registered as authorized, fed to DistDFe
 *                                             (full: true also feeds the procNFe, as after the recipient's awareness)
 *   POST /_control/third-party-documents/{chNFe}/cancellation  the issuer cancels it: resEvento fed to the recipient
 *   GET  /_control/distribution/{taxId}       { queries, documents, adnQueries }: DistDFe queries and documents fed, ADN queries
 *   GET  /_control/documents/{chNFe}          what the simulator holds for an NF-e
 *   GET  /_control/issued/{taxId}             everything an issuer registered: NF-e (with their events), NFS-e (with
 *                                             theirs) and voided ranges; a chaos test counts duplicates from it
 *   POST /_control/reset                      forgets documents, feeds, faults and the clock offset
 */
export function createControlServer(services: SimServices, ca: TestCertificateAuthority, token: string): Server {
  const expected = Buffer.from(`Bearer ${token}`);
  const authorized = (req: IncomingMessage) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const route = async (req: IncomingMessage): Promise<{ status: number; body: unknown }> => {
    const path = new URL(req.url ?? '/', 'http://control').pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/_control/health')
      return { status: 200, body: { status: 'ok', clockOffsetMs: services.clock.offset() } };
    if (method === 'GET' && path === '/_control/ca') return { status: 200, body: { caCertificatePem: ca.caCertificatePem } };
    if (method === 'POST' && path === '/_control/certificates') {
      const body = await readJson(req);
      const { taxId, legalName, password, notAfter } = body;
      if (typeof taxId !== 'string' || typeof legalName !== 'string' || typeof password !== 'string')
        throw new ControlError(400, 'taxId, legalName and password are required strings');
      const pfx = ca.issueA1({ taxId, legalName, password, ...(typeof notAfter === 'string' ? { notAfter: new Date(notAfter) } : {}) });
      return { status: 201, body: { pkcs12Base64: pfx.toString('base64') } };
    }
    const fault = /^\/_control\/faults\/([A-Za-z*-]{1,10})$/.exec(path);
    if (method === 'PUT' && fault) {
      services.faults.set(fault[1] as string, faultSettings(await readJson(req)));
      return { status: 200, body: services.faults.snapshot() };
    }
    if (method === 'GET' && path === '/_control/faults')
      return { status: 200, body: { faults: services.faults.snapshot(), droppedAnswers: services.faults.dropped } };
    if (method === 'DELETE' && path === '/_control/faults') {
      services.faults.clear();
      return { status: 204, body: undefined };
    }
    if (method === 'PUT' && path === '/_control/clock') {
      const { offsetMs } = await readJson(req);
      if (typeof offsetMs !== 'number') throw new ControlError(400, 'offsetMs: expected a number');
      services.clock.setOffset(offsetMs);
      return { status: 200, body: { clockOffsetMs: services.clock.offset() } };
    }
    if (method === 'POST' && path === '/_control/third-party-documents') {
      const { signedNfe, environment, recipientTaxId, issuerTaxId, value, count, full } = await readJson(req);
      const tpAmb = environment === 'production' ? '1' : '2';
      const registered = (stored: { key: string; nProt: string; recipientTaxId?: string }) => ({
        accessKey: stored.key,
        nProt: stored.nProt,
        recipientTaxId: stored.recipientTaxId,
      });
      try {
        if (typeof signedNfe === 'string') return { status: 201, body: registered(registerThirdPartyNfe(services, signedNfe, tpAmb)) };
        if (typeof recipientTaxId !== 'string')
          throw new Error('signedNfe (an NF-e to register) or recipientTaxId (to generate one) is required');
        const times = typeof count === 'number' && Number.isInteger(count) && count >= 1 && count <= 50 ? count : 1;
        const purchase = {
          recipientTaxId,
          tpAmb,
          issuerTaxId: typeof issuerTaxId === 'string' ? issuerTaxId : undefined,
          value: typeof value === 'string' ? value : undefined,
        } as const;
        const documents = Array.from({ length: times }, () => {
          const stored = generateThirdPartyNfe(services, ca, purchase);
          if (full === true) services.feed.add(recipientTaxId, 'procNFe_v4.00.xsd', nfeProc(stored));
          return registered(stored);
        });
        return { status: 201, body: times === 1 ? (documents[0] as object) : { documents } };
      } catch (error) {
        throw new ControlError(422, (error as Error).message);
      }
    }
    const cancellation = /^\/_control\/third-party-documents\/([0-9]{44})\/cancellation$/.exec(path);
    if (method === 'POST' && cancellation) {
      try {
        return { status: 201, body: cancelThirdPartyNfe(services, cancellation[1] as string) };
      } catch (error) {
        throw new ControlError(422, (error as Error).message);
      }
    }
    const distribution = /^\/_control\/distribution\/([0-9A-Z]{11,14})$/.exec(path);
    if (method === 'GET' && distribution) {
      const taxId = distribution[1] as string;
      return { status: 200, body: { ...services.feed.stats(taxId), adnQueries: services.nfse.queryCount(taxId) } };
    }
    const document = /^\/_control\/documents\/([0-9A-Z]{44})$/.exec(path);
    if (method === 'GET' && document) {
      const stored = services.state.findByKey(document[1] as string);
      if (!stored) throw new ControlError(404, 'unknown access key');
      return { status: 200, body: { ...stored, signedNfe: undefined } };
    }
    const issued = /^\/_control\/issued\/([0-9]{11,14})$/.exec(path);
    if (method === 'GET' && issued) return { status: 200, body: issuedBy(services, issued[1] as string) };
    if (method === 'POST' && path === '/_control/reset') {
      services.state.clear();
      services.nfse.clear();
      services.feed.clear();
      services.faults.clear();
      services.faults.dropped = 0;
      services.clock.setOffset(0);
      return { status: 204, body: undefined };
    }
    throw new ControlError(404, `no control route ${method} ${path}`);
  };

  return createServer((req: IncomingMessage, res: ServerResponse) => {
    // Liveness is public (process supervisors and readiness probes carry no token); it reveals nothing else.
    if (req.method === 'GET' && req.url === '/_control/health' && !req.headers.authorization) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
      return;
    }
    if (!authorized(req)) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bearer token required' }));
      return;
    }
    route(req).then(
      ({ status, body }) => {
        res
          .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
          .end(body === undefined ? undefined : JSON.stringify(body));
      },
      (error: unknown) => {
        const status = error instanceof ControlError ? error.status : error instanceof SyntaxError ? 400 : 500;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
      },
    );
  });
}
