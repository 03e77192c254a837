// NfseNacionalClient ↔ the simulated Sefin Nacional / ADN (real process, mTLS, JSON with gzip+base64 XML).
import { NfseNacionalClient } from '@talao/authorizer-clients';
import type { DpsDocument } from '@talao/fiscal-model';
import { buildNfseCancellationRequest, validateXml } from '@talao/fiscal-xml';
import { createSigner, verifyXmlSignature } from '@talao/xml-signing';
import { signedDps } from './support/dps-fixture.js';
import { useSimulator } from './support/simulator-suite.js';
import { homologationCaller, type TestCaller } from './support/test-companies.js';

const PROVIDER = '11222333000181';
const TAKER = '44555666000199';
const simulator = useSimulator();
let client: NfseNacionalClient;
let ctx: TestCaller;
let takerCtx: TestCaller;
let nextNumber = 1;

beforeAll(async () => {
  client = new NfseNacionalClient(simulator.clientOptions);
  ctx = await homologationCaller(simulator.sim, PROVIDER);
  takerCtx = await homologationCaller(simulator.sim, TAKER, 'TOMADORA LTDA');
});

const fresh = () => signedDps(ctx.credentials, { cnpj: PROVIDER, number: nextNumber++, takerCnpj: TAKER });

describe('Sefin Nacional', () => {
  it('issues an NFS-e with a 50-digit key, signed by the national environment and valid against NFSe_v1.01', async () => {
    const { dpsId, signedDps: dps } = fresh();
    const outcome = await client.emitDps(ctx, { signedDps: dps });
    expect(outcome).toMatchObject({ status: 'authorized', code: '201' });
    if (outcome.status !== 'authorized') return;
    expect(outcome.protocol).toMatch(/^3550308\d{43}$/);
    expect(outcome.result.dpsId).toBe(dpsId);
    const nfse = outcome.result.nfseXml ?? '';
    expect(validateXml('nfse', nfse)).toEqual({ valid: true });
    expect(nfse).toContain(dps.replace(/^<\?xml[^>]*\?>/, ''));
    expect(verifyXmlSignature(nfse)).toMatchObject({ valid: true }); // the national signature and the embedded DPS's
    expect(outcome.exchanges[0]?.request.url).toBe(`${simulator.sim.baseUrl}/sefin/homologacao/SefinNacional/nfse`);
  });

  it('refuses the same DPS twice and finds it by id (GET and HEAD) — the reconciliation after a lost answer', async () => {
    const { dpsId, signedDps: dps } = fresh();
    const first = await client.emitDps(ctx, { signedDps: dps });
    expect(await client.emitDps(ctx, { signedDps: dps })).toMatchObject({ status: 'rejected', code: 'SIM0009' });
    expect(await client.findDps(ctx, dpsId)).toMatchObject({
      status: 'accepted',
      protocol: first.status === 'authorized' ? first.protocol : 'x',
    });
    expect(await client.findDps(ctx, dpsId, true)).toMatchObject({ status: 'accepted' });
    expect(await client.findDps(ctx, `DPS${'9'.repeat(42)}`)).toMatchObject({ status: 'rejected', code: 'SIM0404' });
  });

  it('classifies a lost answer as unknown; the DPS lookup shows it was issued', async () => {
    await simulator.sim.control('PUT', '/_control/faults/SEFIN', { dropResponses: 1 });
    const { dpsId, signedDps: dps } = fresh();
    expect(await client.emitDps(ctx, { signedDps: dps })).toMatchObject({ status: 'unknown', reason: 'connection-reset' });
    expect(await client.findDps(ctx, dpsId)).toMatchObject({ status: 'accepted' });
  });

  it('refuses the approximate taxes the provider’s regime does not allow (E0713 outside the Simples, E0712 for an ME/EPP)', async () => {
    const withTaxes = (opSimpNac: '1' | '2' | '3', totTrib: DpsDocument['valores']['trib']['totTrib']) => (doc: DpsDocument) => ({
      ...doc,
      prest: { ...doc.prest, regTrib: { opSimpNac, ...(opSimpNac === '3' && { regApTribSN: '1' as const }), regEspTrib: '0' as const } },
      valores: { ...doc.valores, trib: { ...doc.valores.trib, totTrib } },
    });
    const send = (adjust: (doc: DpsDocument) => DpsDocument) =>
      client.emitDps(ctx, {
        signedDps: signedDps(ctx.credentials, { cnpj: PROVIDER, number: nextNumber++, takerCnpj: TAKER, adjust }).signedDps,
      });
    const approximate = { pTotTrib: { pTotTribFed: '13.45', pTotTribEst: '0.00', pTotTribMun: '2.00' } };
    expect(await send(withTaxes('1', { indTotTrib: '0' }))).toMatchObject({ status: 'rejected', code: 'E0713' });
    expect(await send(withTaxes('1', { pTotTribSN: '6.00' }))).toMatchObject({ status: 'rejected', code: 'E0713' });
    expect(await send(withTaxes('3', { indTotTrib: '0' }))).toMatchObject({ status: 'rejected', code: 'E0712' });
    expect(await send(withTaxes('1', approximate))).toMatchObject({ status: 'authorized' });
    expect(await send(withTaxes('3', { pTotTribSN: '6.00' }))).toMatchObject({ status: 'authorized' });
    expect(await send(withTaxes('2', { indTotTrib: '0' }))).toMatchObject({ status: 'authorized' });
  });

  it('refuses a DPS changed after signing and classifies an outage as unavailable', async () => {
    const tampered = fresh().signedDps.replace('<vServ>', '<vServ>1');
    expect(await client.emitDps(ctx, { signedDps: tampered })).toMatchObject({ status: 'rejected', code: 'SIM0005' });
    await simulator.sim.control('PUT', '/_control/faults/SEFIN', { outage: true });
    expect(await client.emitDps(ctx, { signedDps: fresh().signedDps })).toMatchObject({ status: 'unavailable', reason: 'http-error' });
  });

  it('cancels once, serves the NFS-e, the DANFSe and the taker’s ADN feed', async () => {
    const issued = await client.emitDps(ctx, { signedDps: fresh().signedDps });
    if (issued.status !== 'authorized') throw new Error('not issued');
    const key = issued.protocol as string;
    const cancel = () => {
      const request = buildNfseCancellationRequest({
        environment: 'homologation',
        applicationVersion: 'Talao 0.1.0',
        author: { cnpj: PROVIDER },
        accessKey: key,
        eventAt: new Date(),
        utcOffset: '-03:00',
        reason: '1',
        justification: 'Servico cobrado em duplicidade por erro',
      });
      return client.sendEvent(ctx, { accessKey: key, signedEventRequest: createSigner(ctx.credentials).signDps(request.xml, request.id) });
    };
    const first = await cancel();
    expect(first).toMatchObject({ status: 'accepted', code: '201' });
    if (first.status === 'accepted') expect(validateXml('evento', first.result.eventXml ?? '')).toEqual({ valid: true });
    expect(await cancel()).toMatchObject({ status: 'rejected', code: 'SIM0013' });

    expect(await client.getNfse(ctx, key)).toMatchObject({ status: 'accepted', protocol: key });
    const danfse = await client.getDanfse(ctx, key);
    expect(danfse.status).toBe('accepted');
    if (danfse.status === 'accepted') expect(Buffer.from(danfse.result.pdfBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    const feed = await client.distribution(takerCtx, { nsu: 1 });
    expect(feed).toMatchObject({ status: 'accepted', code: 'DOCUMENTOS_LOCALIZADOS' });
    if (feed.status === 'accepted') {
      const mine = feed.result.documents.filter((d) => d.accessKey === key).map((d) => d.documentType);
      expect(mine).toEqual(['NFSE', 'EVENTO']);
    }
  });
});
