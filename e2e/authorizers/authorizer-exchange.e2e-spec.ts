// The authorizer exchange against the simulator (a real process, mTLS) and the run's PostgreSQL (submissions through
// SubmissionsRepository): the exact request stored before it leaves and the exact answer after; after an unknown
// outcome the authorizer is consulted before anything else; a resend after "no record" carries the stored bytes.
import { NfseNacionalClient, SefazClient, type SefazCallContext } from '@talao/authorizer-clients';
import {
  type DocumentDecision,
  ExchangeLog,
  exchangeConsultingFirst,
  type ExchangeResult,
  type ExchangeStrategy,
  nfeAuthorization,
  nfseEmission,
  type TransmissionStore,
} from '@talao/authorizer-exchange';
import { createPrismaClient, InvoicesRepository, SubmissionsRepository } from '@talao/persistence';
import type { A1Certificate } from '@talao/xml-signing';
import { signedDps } from './support/dps-fixture.js';
import { signedFixture } from './support/nfe-fixture.js';
import { useSimulator } from './support/simulator-suite.js';
import { issueCompanyCertificate } from './support/test-companies.js';

const CNPJ = '11222333000181';
const TAKER = '44555666000199';
const prisma = createPrismaClient(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const invoices = new InvoicesRepository(prisma);
const submissions = new SubmissionsRepository(prisma);
const simulator = useSimulator();
let certificate: A1Certificate;
let sefaz: SefazClient;
let nfse: NfseNacionalClient;
let companyId: string;
let nextNumber = 1;

beforeAll(async () => {
  certificate = await issueCompanyCertificate(simulator.sim, CNPJ);
  const options = { ...simulator.clientOptions, timeouts: { connectMs: 2_000, readMs: 3_000 } };
  sefaz = new SefazClient(options);
  nfse = new NfseNacionalClient(options);
  const taxId = String(Date.now()).padStart(14, '3').slice(-14);
  companyId = (
    await prisma.company.create({ data: { taxId, legalName: 'Troca Ltda', cityCode: '3550308', cityName: 'Sao Paulo', state: 'SP' } })
  ).id;
});

afterAll(async () => {
  if (companyId) await prisma.company.delete({ where: { id: companyId } });
  await prisma.$disconnect();
});

const caller = () => ({ credentials: certificate, environment: 'homologation' as const, uf: 'SP' });
const ctx = (): SefazCallContext => caller();
const newInvoice = async (documentType: 'nfe' | 'nfse') =>
  (await invoices.createProcessing({ companyId, environment: 'homologation', documentType, series: 1, request: {}, totalAmount: '1.00' }))
    .id;
const stored = (invoiceId: string) => prisma.submission.findMany({ where: { invoiceId }, orderBy: { attempt: 'asc' } });
const mustNotRebuild = () => {
  throw new Error('a document was rebuilt instead of sending the stored bytes');
};

/** One run: the invoice's stored exchanges are its history; the held answer is stored at the end (flush). */
async function run<T>(
  invoiceId: string,
  strategy: ExchangeStrategy<DocumentDecision, T>,
  store: TransmissionStore = submissions,
): Promise<ExchangeResult<DocumentDecision>> {
  const log = new ExchangeLog(store, { invoiceId, companyId });
  const result = await exchangeConsultingFirst(strategy, log, await submissions.listByInvoice(invoiceId));
  await log.flush();
  return result;
}

describe('NF-e authorization', () => {
  it('persist before send: the exact envelope is committed before the simulator holds the NF-e, the exact answer after', async () => {
    const invoiceId = await newInvoice('nfe');
    const { accessKey, signedNfe } = signedFixture(certificate, { cnpj: CNPJ, number: nextNumber++ });
    const order: string[] = [];
    const watching: TransmissionStore = {
      async begin(input) {
        const begun = await submissions.begin(input);
        const row = await prisma.submission.findUniqueOrThrow({ where: { id: begun.id } });
        const held = await simulator.sim.control('GET', `/_control/documents/${accessKey}`);
        order.push(
          `${input.operation} stored (${row.requestBody === input.requestBody ? 'exact' : 'altered'}), simulator holds it: ${held.status === 200}`,
        );
        return begun;
      },
      async answer(id, answer) {
        await submissions.answer(id, answer);
        order.push(`${answer.outcome} answer stored`);
      },
    };
    const result = await run(invoiceId, nfeAuthorization({ sefaz, caller: caller(), signedNfe: () => signedNfe }), watching);

    expect(order).toEqual(['NFeAutorizacao4 stored (exact), simulator holds it: false', 'authorized answer stored']);
    const held = await simulator.sim.control('GET', `/_control/documents/${accessKey}`);
    expect(result).toMatchObject({
      kind: 'decided',
      decision: { status: 'issued', accessKey, protocol: String(held.json['nProt']), statusCode: '100' },
    });
    const [row, ...others] = await stored(invoiceId);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ operation: 'NFeAutorizacao4', outcome: 'authorized', statusCode: '100', httpStatus: 200 });
    expect(row!.endpoint).toBe(`${simulator.sim.baseUrl}/SP/homologacao/ws/nfeautorizacao4.asmx`);
    // Signed XML is never reformatted: the NFe inside the stored envelope and in nfeProc is the signed string itself.
    expect(row!.requestBody).toContain(signedNfe);
    expect(row!.responseBody).toContain(`<nProt>${String(held.json['nProt'])}</nProt>`);
    if (result.kind === 'decided') expect(result.decision.authorizedXml).toContain(signedNfe);
  });

  it('consult first after an unknown outcome: the lost answer is reconciled by the key, nothing is sent twice', async () => {
    const invoiceId = await newInvoice('nfe');
    const { accessKey, signedNfe } = signedFixture(certificate, { cnpj: CNPJ, number: nextNumber++ });
    await simulator.sim.control('PUT', '/_control/faults/SP', { dropResponses: 1 });
    const result = await run(invoiceId, nfeAuthorization({ sefaz, caller: caller(), signedNfe: () => signedNfe }));

    const held = await simulator.sim.control('GET', `/_control/documents/${accessKey}`);
    expect(result).toMatchObject({
      kind: 'decided',
      decision: { status: 'issued', accessKey, protocol: String(held.json['nProt']), statusCode: '100' },
    });
    if (result.kind === 'decided') expect(result.decision.authorizedXml).toContain(signedNfe);
    const rows = await stored(invoiceId);
    expect(rows.map((s) => [s.operation, s.outcome])).toEqual([
      ['NFeAutorizacao4', 'unknown'],
      ['NFeConsultaProtocolo4', 'accepted'],
    ]);
    expect(rows[1]!.requestBody).toContain(`<chNFe>${accessKey}</chNFe>`);
  });

  it('a run that died before sending: the next one consults first, and "no record" sends the stored bytes again', async () => {
    const invoiceId = await newInvoice('nfe');
    const { accessKey, signedNfe } = signedFixture(certificate, { cnpj: CNPJ, number: nextNumber++ });
    const lot = sefaz.prepareAuthorization(ctx(), { signedNfe, lotId: '424242' });
    await submissions.begin({ invoiceId, companyId, operation: lot.operation, endpoint: lot.url, requestBody: lot.body });

    const result = await run(invoiceId, nfeAuthorization({ sefaz, caller: caller(), signedNfe: mustNotRebuild }));
    expect(result).toMatchObject({ kind: 'decided', decision: { status: 'issued', accessKey, statusCode: '100' } });
    const rows = await stored(invoiceId);
    expect(rows.map((s) => [s.operation, s.outcome, s.statusCode])).toEqual([
      ['NFeAutorizacao4', null, null],
      ['NFeConsultaProtocolo4', 'rejected', '217'],
      ['NFeAutorizacao4', 'authorized', '100'],
    ]);
    // The same bytes (lot id included), so the same access key: never a second document, never a 539.
    expect(rows[2]!.requestBody).toBe(rows[0]!.requestBody);
    expect(rows[2]!.endpoint).toBe(rows[0]!.endpoint);
  });

  it('a run that died after sending: the consult finds the NF-e and nothing is sent again', async () => {
    const invoiceId = await newInvoice('nfe');
    const { accessKey, signedNfe } = signedFixture(certificate, { cnpj: CNPJ, number: nextNumber++ });
    const lot = sefaz.prepareAuthorization(ctx(), { signedNfe, lotId: '434343' });
    await submissions.begin({ invoiceId, companyId, operation: lot.operation, endpoint: lot.url, requestBody: lot.body });
    expect((await lot.send()).status).toBe('authorized'); // the answer died with the worker

    const result = await run(invoiceId, nfeAuthorization({ sefaz, caller: caller(), signedNfe: mustNotRebuild }));
    const held = await simulator.sim.control('GET', `/_control/documents/${accessKey}`);
    expect(result).toMatchObject({ kind: 'decided', decision: { status: 'issued', accessKey, protocol: String(held.json['nProt']) } });
    expect((await stored(invoiceId)).map((s) => [s.operation, s.outcome])).toEqual([
      ['NFeAutorizacao4', null],
      ['NFeConsultaProtocolo4', 'accepted'],
    ]);
  });

  it('SEFAZ down without another route: unavailable, nothing consulted', async () => {
    const invoiceId = await newInvoice('nfe');
    const { signedNfe } = signedFixture(certificate, { cnpj: CNPJ, number: nextNumber++ });
    await simulator.sim.control('PUT', '/_control/faults/SP', { outage: true });
    const result = await run(invoiceId, nfeAuthorization({ sefaz, caller: caller(), signedNfe: () => signedNfe }));
    expect(result.kind).toBe('unavailable');
    expect((await stored(invoiceId)).map((s) => [s.operation, s.outcome])).toEqual([['NFeAutorizacao4', 'unavailable']]);
  });
});

describe('NFS-e emission', () => {
  const strategy = (dps: () => string) =>
    nfseEmission({ nfse, caller: { credentials: certificate, environment: 'homologation' }, signedDps: dps });

  it('consult first after a lost answer: GET /dps finds the NFS-e and GET /nfse keeps its XML', async () => {
    const invoiceId = await newInvoice('nfse');
    const { dpsId, signedDps: dps } = signedDps(certificate, { cnpj: CNPJ, number: nextNumber++, takerCnpj: TAKER });
    await simulator.sim.control('PUT', '/_control/faults/SEFIN', { dropResponses: 1 });
    const result = await run(
      invoiceId,
      strategy(() => dps),
    );

    expect(result).toMatchObject({ kind: 'decided', decision: { status: 'issued' } });
    if (result.kind !== 'decided') return;
    expect(result.decision.accessKey).toMatch(/^\d{50}$/);
    expect(result.decision.authorizedXml).toContain(dps.replace(/^<\?xml[^>]*\?>/, ''));
    const rows = await stored(invoiceId);
    expect(rows.map((s) => [s.operation, s.outcome])).toEqual([
      ['POST /nfse', 'unknown'],
      ['GET /dps', 'accepted'],
      ['GET /nfse', 'accepted'],
    ]);
    expect(rows[1]!.endpoint).toBe(`${simulator.sim.baseUrl}/sefin/homologacao/SefinNacional/dps/${dpsId}`);
  });

  it('a stored emission that never left: GET /dps answers 404 and the stored body is sent again, byte for byte', async () => {
    const invoiceId = await newInvoice('nfse');
    const { signedDps: dps } = signedDps(certificate, { cnpj: CNPJ, number: nextNumber++, takerCnpj: TAKER });
    const emission = nfse.prepareEmission({ credentials: certificate, environment: 'homologation' }, { signedDps: dps });
    await submissions.begin({ invoiceId, companyId, operation: emission.operation, endpoint: emission.url, requestBody: emission.body });

    const result = await run(invoiceId, strategy(mustNotRebuild));
    expect(result).toMatchObject({ kind: 'decided', decision: { status: 'issued' } });
    const rows = await stored(invoiceId);
    expect(rows.map((s) => [s.operation, s.outcome, s.httpStatus])).toEqual([
      ['POST /nfse', null, null],
      ['GET /dps', 'rejected', 404],
      ['POST /nfse', 'authorized', 201],
    ]);
    expect(rows[2]!.requestBody).toBe(rows[0]!.requestBody);
  });
});
