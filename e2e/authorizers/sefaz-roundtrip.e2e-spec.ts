// SefazClient ↔ authorizer simulator, both real: mTLS, SOAP 1.2 on the real paths, the simulator's rules, and the
// outcome classification (authorized / rejected / unavailable / unknown) with the exact bytes of every exchange.
import { Agent } from 'node:https';
import { callHttps, SefazClient } from '@talao/authorizer-clients';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { rawElement, validateXml } from '@talao/fiscal-xml';
import { loadPkcs12 } from '@talao/xml-signing';
import { signedFixture } from './support/nfe-fixture.js';
import { useSimulator } from './support/simulator-suite.js';
import { homologationCaller, issueCompanyCertificate, type TestCaller } from './support/test-companies.js';

const CNPJ = '11222333000181';
const simulator = useSimulator();
let client: SefazClient;
let ctx: TestCaller;
let nextNumber = 100;

beforeAll(async () => {
  ctx = await homologationCaller(simulator.sim, CNPJ);
  client = new SefazClient({
    ...simulator.clientOptions,
    timeouts: { connectMs: 2_000, readMs: 5_000 },
    asyncPolling: { intervalMs: 600, maxAttempts: 5 },
  });
});

const fresh = (options: Partial<Parameters<typeof signedFixture>[1]> = {}) =>
  signedFixture(ctx.credentials, { cnpj: CNPJ, number: nextNumber++, ...options });
const innerMessage = (body: string | undefined, root: string) => rawElement(body ?? '', root) ?? '';

describe('status service', () => {
  it('answers 107 in operation, valid against retConsStatServ', async () => {
    const outcome = await client.statusService(ctx);
    expect(outcome).toMatchObject({ status: 'accepted', code: '107', message: 'Serviço em Operação' });
    expect(outcome.exchanges[0]?.request.url).toBe(`${simulator.sim.baseUrl}/SP/homologacao/ws/nfestatusservico4.asmx`);
    expect(validateXml('retConsStatServ', innerMessage(outcome.exchanges[0]?.response?.body, 'retConsStatServ'))).toEqual({ valid: true });
  });

  it('is unavailable when the authorizer is paused (108)', async () => {
    await simulator.sim.control('PUT', '/_control/faults/SP', { paused: true });
    expect(await client.statusService(ctx)).toMatchObject({ status: 'unavailable', reason: 'service-paused', code: '108' });
  });
});

describe('authorization', () => {
  it('authorizes, returns protNFe and the exact bytes, and the consult finds it', async () => {
    const { accessKey, signedNfe } = fresh();
    const outcome = await client.authorize(ctx, { signedNfe, lotId: '1' });
    expect(outcome).toMatchObject({ status: 'authorized', code: '100', message: 'Autorizado o uso da NF-e' });
    if (outcome.status !== 'authorized') return;
    expect(outcome.protocol).toMatch(/^235\d{12}$/);
    const exchange = outcome.exchanges[0];
    expect(exchange?.request.body).toContain(signedNfe);
    expect(exchange?.request.headers['content-type']).toBe(
      'application/soap+xml; charset=utf-8; action="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4/nfeAutorizacaoLote"',
    );
    expect(validateXml('retEnviNFe', innerMessage(exchange?.response?.body, 'retEnviNFe'))).toEqual({ valid: true });
    expect(outcome.result.protocol?.accessKey).toBe(accessKey);
    expect(outcome.result.protocol?.rawXml).toMatch(/^<protNFe versao="4.00">/);

    const consult = await client.consultProtocol(ctx, accessKey);
    expect(consult).toMatchObject({ status: 'accepted', code: '100', protocol: outcome.protocol });
    expect(validateXml('retConsSitNFe', innerMessage(consult.exchanges[0]?.response?.body, 'retConsSitNFe'))).toEqual({ valid: true });
  });

  it('rejects the same key twice (204) and the same number with another key (539)', async () => {
    const first = fresh();
    expect((await client.authorize(ctx, { signedNfe: first.signedNfe, lotId: '2' })).status).toBe('authorized');
    const again = await client.authorize(ctx, { signedNfe: first.signedNfe, lotId: '3' });
    expect(again).toMatchObject({ status: 'rejected', code: '204' });
    const sameNumber = signedFixture(ctx.credentials, { cnpj: CNPJ, number: nextNumber - 1, numericCode: '87654321' });
    const other = await client.authorize(ctx, { signedNfe: sameNumber.signedNfe, lotId: '4' });
    expect(other).toMatchObject({ status: 'rejected', code: '539' });
    if (other.status === 'rejected') expect(other.message).toContain(`[chNFe: ${first.accessKey}]`);
  });

  it('rejects an NF-e whose totals differ from the items (564) and a wrong homologation recipient (598)', async () => {
    expect(await client.authorize(ctx, { signedNfe: fresh({ wrongTotal: true }).signedNfe, lotId: '5' })).toMatchObject({
      status: 'rejected',
      code: '564',
      message: 'Rejeição: Total do Produto / Serviço difere do somatório dos itens',
    });
    expect(await client.authorize(ctx, { signedNfe: fresh({ recipientName: 'CLIENTE REAL' }).signedNfe, lotId: '6' })).toMatchObject({
      status: 'rejected',
      code: '598',
    });
  });

  it('rejects a document changed after signing (297) and one signed by another company (213)', async () => {
    const tampered = fresh().signedNfe.replace('<natOp>', '<natOp>X');
    expect(await client.authorize(ctx, { signedNfe: tampered, lotId: '7' })).toMatchObject({ status: 'rejected', code: '297' });
    const other = await issueCompanyCertificate(simulator.sim, '99888777000166', 'OUTRA LTDA');
    const signedByOther = signedFixture(other, { cnpj: CNPJ, number: nextNumber++ }).signedNfe;
    expect(await client.authorize(ctx, { signedNfe: signedByOther, lotId: '8' })).toMatchObject({ status: 'rejected', code: '213' });
  });

  it('rejects an NF-e issued in the future (703) or more than 30 days ago (228)', async () => {
    const day = 24 * 3_600_000;
    expect(
      await client.authorize(ctx, { signedNfe: fresh({ issuedAt: new Date(Date.now() + day) }).signedNfe, lotId: '14' }),
    ).toMatchObject({ status: 'rejected', code: '703' });
    expect(
      await client.authorize(ctx, { signedNfe: fresh({ issuedAt: new Date(Date.now() - 31 * day) }).signedNfe, lotId: '15' }),
    ).toMatchObject({ status: 'rejected', code: '228' });
  });

  it('rejects an NF-e of the production environment sent to homologation (252)', async () => {
    expect(await client.authorize(ctx, { signedNfe: fresh({ tpAmb: '1' }).signedNfe, lotId: '9' })).toMatchObject({
      status: 'rejected',
      code: '252',
    });
  });

  it('forces a rejection with the official text', async () => {
    await simulator.sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '301' } });
    const outcome = await client.authorize(ctx, { signedNfe: fresh().signedNfe, lotId: '10' });
    expect(outcome).toMatchObject({ status: 'rejected', code: '301', message: 'Uso Denegado: Irregularidade fiscal do emitente' });
  });

  it('follows an asynchronous answer (103) to the receipt', async () => {
    await simulator.sim.control('PUT', '/_control/faults/SP', { asyncAnswers: 1 });
    const outcome = await client.authorize(ctx, { signedNfe: fresh().signedNfe, lotId: '11' });
    expect(outcome).toMatchObject({ status: 'authorized', code: '100' });
    expect(outcome.exchanges.length).toBeGreaterThanOrEqual(2);
  });

  it('authorizes in SVC-AN contingency with tpEmis 6, and refuses tpEmis 1 there (570)', async () => {
    const svc = { ...ctx, contingency: true };
    const outcome = await client.authorize(svc, { signedNfe: fresh({ tpEmis: 6 }).signedNfe, lotId: '12' });
    expect(outcome).toMatchObject({ status: 'authorized' });
    expect(outcome.exchanges[0]?.request.url).toContain('/SVC-AN/homologacao/');
    expect(await client.authorize(svc, { signedNfe: fresh().signedNfe, lotId: '13' })).toMatchObject({ status: 'rejected', code: '570' });
  });
});

describe('failures', () => {
  it('classifies a lost response as unknown, and the consult reconciles it as authorized', async () => {
    await simulator.sim.control('PUT', '/_control/faults/SP', { dropResponses: 1 });
    const { accessKey, signedNfe } = fresh();
    const outcome = await client.authorize(ctx, { signedNfe, lotId: '20' });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'connection-reset' });
    expect(outcome.exchanges[0]?.timing.requestWrittenMs).toBeDefined();
    expect(await client.consultProtocol(ctx, accessKey)).toMatchObject({ status: 'accepted', code: '100' });
  });

  it('classifies silence after sending as unknown (read timeout)', async () => {
    await simulator.sim.control('PUT', '/_control/faults/SP', { hang: true });
    const impatient = new SefazClient({
      ...simulator.clientOptions,
      timeouts: { connectMs: 2_000, readMs: 400 },
    });
    expect(await impatient.authorize(ctx, { signedNfe: fresh().signedNfe, lotId: '21' })).toMatchObject({
      status: 'unknown',
      reason: 'read-timeout',
    });
  });

  it('classifies an outage as unavailable', async () => {
    await simulator.sim.control('PUT', '/_control/faults/SP', { outage: true });
    expect(await client.authorize(ctx, { signedNfe: fresh().signedNfe, lotId: '22' })).toMatchObject({
      status: 'unavailable',
      reason: 'http-error',
    });
  });

  it('refuses a connection without a client certificate or with another CA’s, before sending', async () => {
    const bare = await callHttps({
      method: 'POST',
      url: `${simulator.sim.baseUrl}/SP/homologacao/ws/nfestatusservico4.asmx`,
      headers: {},
      body: 'x',
      agent: new Agent({ ca: simulator.sim.caCertificatePem, maxVersion: 'TLSv1.2' }),
    });
    expect(bare).toMatchObject({ kind: 'failure', reason: 'tls', sent: false });
    const foreign = loadPkcs12(
      createTestCertificateAuthority().issueA1({ taxId: CNPJ, legalName: 'EMPRESA TESTE LTDA', password: 'x' }),
      'x',
    );
    expect(await client.statusService({ ...ctx, credentials: foreign })).toMatchObject({ status: 'unavailable', reason: 'tls' });
  });
});

describe('control API', () => {
  it('answers liveness to anyone, everything else only with the token, and refuses malformed faults', async () => {
    expect((await fetch(`${simulator.sim.controlUrl}/_control/health`)).status).toBe(200);
    expect((await fetch(`${simulator.sim.controlUrl}/_control/faults`, { method: 'DELETE' })).status).toBe(401);
    expect(
      (await fetch(`${simulator.sim.controlUrl}/_control/ca`, { headers: { authorization: 'Bearer wrong-token-of-same-size' } })).status,
    ).toBe(401);
    expect((await simulator.sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '000' } })).status).toBe(400);
    expect((await simulator.sim.control('PUT', '/_control/faults/SP', { latencyMs: -1 })).status).toBe(400);
    expect((await simulator.sim.control('GET', '/_control/ca')).json['caCertificatePem']).toBe(simulator.sim.caCertificatePem);
  });
});
