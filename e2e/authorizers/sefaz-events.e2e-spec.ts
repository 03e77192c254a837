// Events, inutilização and distribution round trips: SefazClient ↔ the simulator as a real process.
import { SefazClient } from '@talao/authorizer-clients';
import {
  buildCancellationEvent,
  buildCorrectionLetterEvent,
  buildEnvEvento,
  buildInutilizacao,
  buildManifestationEvent,
  type ManifestationType,
  rawElement,
  validateXml,
} from '@talao/fiscal-xml';
import { createSigner } from '@talao/xml-signing';
import { signedFixture } from './support/nfe-fixture.js';
import { useSimulator } from './support/simulator-suite.js';
import { homologationCaller, issueCompanyCertificate, type TestCaller } from './support/test-companies.js';

const ISSUER = '11222333000181';
const RECIPIENT = '44555666000199';
const HOUR = 3_600_000;
const simulator = useSimulator();
let client: SefazClient;
let issuer: TestCaller;
let recipient: TestCaller;
let nextNumber = 500;
let lot = 1;

beforeAll(async () => {
  client = new SefazClient(simulator.clientOptions);
  issuer = await homologationCaller(simulator.sim, ISSUER);
  recipient = await homologationCaller(simulator.sim, RECIPIENT, 'DESTINATARIA LTDA');
});

afterEach(async () => {
  await simulator.sim.control('PUT', '/_control/clock', { offsetMs: 0 });
});

async function authorized(): Promise<{ accessKey: string; protocol: string }> {
  const { accessKey, signedNfe } = signedFixture(issuer.credentials, { cnpj: ISSUER, number: nextNumber++, recipientCnpj: RECIPIENT });
  const outcome = await client.authorize(issuer, { signedNfe, lotId: String(lot++) });
  if (outcome.status !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(outcome).slice(0, 400)}`);
  return { accessKey, protocol: outcome.protocol as string };
}

const common = (accessKey: string, cnpj: string) => ({
  environment: 'homologation' as const,
  author: { cnpj },
  accessKey,
  eventAt: new Date(),
  utcOffset: '-03:00',
});
/** The event signed with the caller's certificate and sent by it. */
const send = (caller: TestCaller, event: { id: string; xml: string }, national = false) =>
  client.sendEvent(caller, {
    envEvento: buildEnvEvento({
      lotId: String(lot++),
      signedEvents: [createSigner(caller.credentials).signNfeFamily(event.xml, event.id)],
    }),
    national,
  });
const cancel = (accessKey: string, protocol: string) =>
  send(issuer, buildCancellationEvent({ ...common(accessKey, ISSUER), protocol, justification: 'Cancelamento por erro de digitacao' }));
const manifest = (accessKey: string, type: ManifestationType) =>
  send(
    recipient,
    buildManifestationEvent({
      ...common(accessKey, RECIPIENT),
      type,
      justification: type === '210240' ? 'Mercadoria nao foi entregue ao destinatario' : undefined,
    }),
    true,
  );

describe('cancellation', () => {
  it('registers it once (135), refuses it again (573), and the consult shows it cancelled (101)', async () => {
    const { accessKey, protocol } = await authorized();
    const outcome = await cancel(accessKey, protocol);
    expect(outcome).toMatchObject({ status: 'accepted', code: '135', message: 'Evento registrado e vinculado a NF-e' });
    expect(validateXml('retEnvEventoCancNFe', rawElement(outcome.exchanges[0]?.response?.body ?? '', 'retEnvEvento') ?? '')).toEqual({
      valid: true,
    });
    expect(await cancel(accessKey, protocol)).toMatchObject({ status: 'rejected', code: '573' });
    const consult = await client.consultProtocol(issuer, accessKey);
    expect(consult).toMatchObject({ status: 'accepted', code: '101' });
    if (consult.status === 'accepted') expect(consult.result.events.map((e) => e.type)).toEqual(['110111']);
    expect(validateXml('retConsSitNFe', rawElement(consult.exchanges[0]?.response?.body ?? '', 'retConsSitNFe') ?? '')).toEqual({
      valid: true,
    });
  });

  it('refuses another protocol (222) and a cancellation after 24 h (501)', async () => {
    const { accessKey, protocol } = await authorized();
    expect(await cancel(accessKey, '135260000000000')).toMatchObject({ status: 'rejected', code: '222' });
    await simulator.sim.control('PUT', '/_control/clock', { offsetMs: 25 * HOUR });
    expect(await cancel(accessKey, protocol)).toMatchObject({ status: 'rejected', code: '501' });
  });
});

describe('correction letter', () => {
  it('takes increasing sequences and refuses a repeated one (573)', async () => {
    const { accessKey } = await authorized();
    const cce = (sequence: number) =>
      send(
        issuer,
        buildCorrectionLetterEvent({
          ...common(accessKey, ISSUER),
          sequence,
          correction: 'Correcao do endereco de entrega do destinatario',
        }),
      );
    expect(await cce(1)).toMatchObject({ status: 'accepted', code: '135' });
    expect(await cce(1)).toMatchObject({ status: 'rejected', code: '573' });
    expect(await cce(2)).toMatchObject({ status: 'accepted', code: '135' });
  });
});

describe('manifestation (AN) and distribution', () => {
  it('feeds the recipient a summary, paces empty queries (137, 656) and gives the full NF-e after awareness', async () => {
    const { accessKey } = await authorized();
    const dist = (lastNsu: string) =>
      client.distribution(recipient, { interested: { cnpj: RECIPIENT }, query: { kind: 'after', lastNsu } });
    const first = await dist('0');
    expect(first).toMatchObject({ status: 'accepted', code: '138' });
    if (first.status !== 'accepted') return;
    expect(validateXml('retDistDFeInt', rawElement(first.exchanges[0]?.response?.body ?? '', 'retDistDFeInt') ?? '')).toEqual({
      valid: true,
    });
    const summary = first.result.documents.find((d) => d.xml.includes(accessKey));
    expect(summary?.schema).toBe('resNFe_v1.01.xsd');
    expect(validateXml('resNFe', summary?.xml ?? '')).toEqual({ valid: true });
    const last = first.result.lastNsu ?? '0';
    expect(await dist(last)).toMatchObject({ status: 'accepted', code: '137' });
    expect(await dist(last)).toMatchObject({ status: 'rejected', code: '656' });

    expect(await manifest(accessKey, '210210')).toMatchObject({ status: 'accepted', code: '135' });
    await simulator.sim.control('PUT', '/_control/clock', { offsetMs: HOUR + 60_000 });
    const later = await dist(last);
    expect(later).toMatchObject({ status: 'accepted', code: '138' });
    if (later.status === 'accepted') expect(later.result.documents.map((d) => d.schema)).toEqual(['procNFe_v4.00.xsd']);
    const one = await client.distribution(recipient, { interested: { cnpj: RECIPIENT }, query: { kind: 'nsu', nsu: summary?.nsu ?? '0' } });
    expect(one).toMatchObject({ status: 'accepted', code: '138' });
    if (one.status === 'accepted') expect(one.result.documents.map((d) => d.kind)).toEqual(['resNFe']);
    const stranger = await client.distribution(issuer, { interested: { cnpj: RECIPIENT }, query: { kind: 'after', lastNsu: '0' } });
    expect(stranger).toMatchObject({ status: 'rejected', code: '593' });
  });

  it('allows two conclusive events, refuses a third (573) and awareness after a conclusive one (655)', async () => {
    const { accessKey } = await authorized();
    expect(await manifest(accessKey, '210200')).toMatchObject({ status: 'accepted', code: '135' });
    expect(await manifest(accessKey, '210210')).toMatchObject({ status: 'rejected', code: '655' });
    expect(await manifest(accessKey, '210220')).toMatchObject({ status: 'accepted', code: '135' });
    expect(await manifest(accessKey, '210240')).toMatchObject({ status: 'rejected', code: '573' });
  });

  it('refuses a manifestation after the deadline (596) and one by someone other than the recipient (575)', async () => {
    const { accessKey } = await authorized();
    const byIssuer = buildManifestationEvent({ ...common(accessKey, ISSUER), type: '210200' });
    expect(await send(issuer, byIssuer, true)).toMatchObject({ status: 'rejected', code: '575' });
    await simulator.sim.control('PUT', '/_control/clock', { offsetMs: 181 * 24 * HOUR });
    expect(await manifest(accessKey, '210200')).toMatchObject({ status: 'rejected', code: '596' });
  });

  it('delivers documents of third parties registered through the control API', async () => {
    const thirdCnpj = '77888999000155';
    const thirdCert = await issueCompanyCertificate(simulator.sim, thirdCnpj, 'FORNECEDOR LTDA');
    const third = signedFixture(thirdCert, { cnpj: thirdCnpj, number: 1, recipientCnpj: RECIPIENT });
    const registered = await simulator.sim.control('POST', '/_control/third-party-documents', { signedNfe: third.signedNfe });
    expect(registered).toMatchObject({ status: 201, json: { accessKey: third.accessKey, recipientTaxId: RECIPIENT } });
    const byKey = await client.distribution(recipient, {
      interested: { cnpj: RECIPIENT },
      query: { kind: 'accessKey', accessKey: third.accessKey },
    });
    expect(byKey).toMatchObject({ status: 'accepted', code: '138' });
    if (byKey.status === 'accepted') expect(byKey.result.documents[0]?.xml).toContain(third.signedNfe);

    const generated = await simulator.sim.control('POST', '/_control/third-party-documents', {
      recipientTaxId: RECIPIENT,
      value: '250.00',
      count: 2,
    });
    expect(generated.status).toBe(201);
    const keys = (generated.json['documents'] as { accessKey: string }[]).map((d) => d.accessKey);
    expect(keys).toHaveLength(2);
    const fetched = await client.distribution(recipient, {
      interested: { cnpj: RECIPIENT },
      query: { kind: 'accessKey', accessKey: keys[0] as string },
    });
    expect(fetched).toMatchObject({ status: 'accepted', code: '138' });
    if (fetched.status === 'accepted') expect(validateXml('procNFe', fetched.result.documents[0]?.xml ?? '')).toEqual({ valid: true });
  });
});

describe('inutilização', () => {
  const inutilize = (first: number, last: number) => {
    const { id, xml } = buildInutilizacao({
      environment: 'homologation',
      ufCode: '35',
      year: new Date().getFullYear(),
      cnpj: ISSUER,
      model: '55',
      series: 1,
      firstNumber: first,
      lastNumber: last,
      justification: 'Numeracao pulada por falha no sistema',
    });
    return client.inutilize(issuer, { signedInutNFe: createSigner(issuer.credentials).signNfeFamily(xml, id) });
  };

  it('voids an unused range once (102, then 563) and refuses a range holding an authorized number (241)', async () => {
    const outcome = await inutilize(9000, 9010);
    expect(outcome).toMatchObject({ status: 'accepted', code: '102' });
    expect(validateXml('retInutNFe', rawElement(outcome.exchanges[0]?.response?.body ?? '', 'retInutNFe') ?? '')).toEqual({ valid: true });
    expect(await inutilize(9000, 9010)).toMatchObject({ status: 'rejected', code: '563' });
    expect(await inutilize(9005, 9020)).toMatchObject({ status: 'rejected', code: '256' });
    await authorized();
    expect(await inutilize(nextNumber - 1, nextNumber)).toMatchObject({ status: 'rejected', code: '241' });
  });
});
