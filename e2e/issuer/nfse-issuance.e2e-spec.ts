// NFS-e Nacional issuance end to end: createInvoice → `issue` job → the issuer's worker → the simulator's Sefin
// (real process, mTLS) → state, submissions with the exact bytes, usage ledger and outbox.
import { jest } from '@jest/globals';
import { createInvoice } from '@talao/issuance';
import { decodeGzipBase64 } from '@talao/fiscal-xml';
import { sampleNfseRequest } from '@talao/fiscal-model/testing';
import { useHarness } from './support/issuer-harness.js';

jest.setTimeout(60_000);

const h = useHarness();

async function issue(companyId: string, environment: 'homologation' | 'production') {
  const { invoice } = await createInvoice(h().createDeps, { companyId, environment, body: sampleNfseRequest() });
  return { created: invoice, final: await h().waitForFinal(invoice.id) };
}

it('stores the body as validated: an NF-e product on an NFS-e line, ignored, never reaches jsonb (issue 15, defect 3)', async () => {
  const companyId = await h().createCompany();
  const body = sampleNfseRequest();
  const items = body['items'] as Record<string, unknown>[];
  // Text PostgreSQL cannot store, nested deeper than any request: the insert failed when the raw body was stored.
  let deep: unknown = 'x\u0000';
  for (let level = 0; level < 200; level++) deep = { level: deep };
  items[0]!['product'] = { br: { ncm: '61091000', cfop: '5102' }, note: 'ignored\u0000', deep };
  const { invoice } = await createInvoice(h().createDeps, { companyId, environment: 'homologation', body });
  const stored = (await h().prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).request as {
    body: { items: Record<string, unknown>[] };
  };
  expect(stored.body.items[0]).not.toHaveProperty('product');
  expect(JSON.stringify(stored.body)).not.toContain('ignored');
  expect((await h().waitForFinal(invoice.id)).status).toBe('issued');
});

const submissionsOf = (invoiceId: string) => h().prisma.submission.findMany({ where: { invoiceId }, orderBy: { attempt: 'asc' } });

it('homologation: issued with the 50-digit NFS-e key, the signed DPS stored before sending, an outbox event, no credit', async () => {
  const companyId = await h().createCompany();
  const { created, final } = await issue(companyId, 'homologation');
  expect(created.dpsId).toMatch(/^DPS[0-9]{42}$/);
  expect(final.status).toBe('issued');
  const invoice = await h().prisma.invoice.findUniqueOrThrow({ where: { id: created.id } });
  expect(invoice.accessKey).toMatch(/^[0-9]{50}$/);
  expect(invoice.authorizedXml).toContain('<NFSe');

  const [submission, ...others] = await submissionsOf(created.id);
  expect(others).toHaveLength(0);
  expect(submission).toMatchObject({ operation: 'POST /nfse', outcome: 'authorized', httpStatus: 201 });
  const dps = decodeGzipBase64(String((JSON.parse(submission!.requestBody) as Record<string, unknown>)['dpsXmlGZipB64']));
  expect(dps).toContain(`Id="${created.dpsId}"`);
  expect(dps).toContain('<Signature');
  expect(submission!.responseBody).toContain(invoice.accessKey!);

  const events = await h().prisma.outboxEvent.findMany({ where: { aggregateId: created.id } });
  expect(events.map((e) => e.type)).toEqual(['invoice.authorized']);
  expect(events[0]!.payload).toMatchObject({
    document_type: 'nfse',
    access_key: invoice.accessKey,
    status: 'issued',
    environment: 'homologation',
  });
  expect(await h().prisma.usageEntry.count({ where: { invoiceId: created.id } })).toBe(0);
});

it('production: one credit', async () => {
  const companyId = await h().createCompany();
  const { created, final } = await issue(companyId, 'production');
  expect(final.status).toBe('issued');
  expect(await h().prisma.usageEntry.count({ where: { invoiceId: created.id, environment: 'production' } })).toBe(1);
});

it('a service taker abroad: the DPS names it by its NIF and the national environment authorizes it', async () => {
  const companyId = await h().createCompany();
  const abroad = { street: '5th Avenue', number: '1', neighborhood: 'Midtown', city: 'New York', country_code: 'US' };
  const body = sampleNfseRequest({ tax_id: 'US-123456789', recipient_address: abroad });
  const { invoice } = await createInvoice(h().createDeps, { companyId, environment: 'homologation', body });
  expect((await h().waitForFinal(invoice.id)).status).toBe('issued');
  const [sent] = await submissionsOf(invoice.id);
  const dps = decodeGzipBase64(String((JSON.parse(sent!.requestBody) as Record<string, unknown>)['dpsXmlGZipB64']));
  expect(dps).toMatch(/<toma><NIF>US-123456789<\/NIF><xNome>/);
});
