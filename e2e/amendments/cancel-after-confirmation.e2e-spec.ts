// A recipient's confirmation bars the issuer's cancellation (the authority's 221), end to end on two companies of the
// platform: A issues an NF-e to B (gateway → issuer → simulator, which feeds it to B's distribution); B collects it
// (received-sync) and confirms the operation (210200, filed at the national environment); A's cancel then reaches the
// authorizer (no local rule knows B's position) and is refused with 221, which the API reports as the authorizer's
// own code and message, and the invoice stays issued.
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(180_000);

const p = startedForFile('platform', () =>
  startPlatform('cancel-after-confirmation', {
    canceller: true,
    gatewayEnv: { AMENDMENT_WAIT_MS: '8000', MANIFESTATION_WAIT_MS: '15000' },
  }),
);
let issuer: TestCompany;
let recipient: TestCompany;

beforeAll(async () => {
  await p.startExtraApp('received-sync');
  issuer = await p.createCompany();
  recipient = await p.createCompany();
});

/** Asks for syncs of the company until `key` is listed (our own pause after an empty answer is forgotten first). */
async function collect(company: TestCompany, key: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const list = await p.api('GET', '/api/v1/received-invoices?document_type=nfe', { key: company.homologationKey });
    if ((list.body.data as Array<{ access_key: string }>).some((row) => row.access_key === key)) return;
    await p.prisma.receivedSyncState.updateMany({ where: { companyId: company.id }, data: { blockedUntil: null } });
    await p.api('POST', '/api/v1/received-invoices/sync', { key: company.homologationKey });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`${key} never reached the recipient's received invoices`);
}

it('the issuer cancelling after the recipient confirmed: 502 with the authority’s 221, the invoice stays issued', async () => {
  const { taxId } = await p.prisma.company.findUniqueOrThrow({ where: { id: recipient.id } });
  const created = await p.api('POST', '/api/v1/invoices', {
    key: issuer.homologationKey,
    body: { ...sampleNfeRequest(), client_name: 'Empresa Destinataria Ltda', tax_id: taxId },
  });
  expect(created.status).toBe(201);
  const accessKey = String(created.body.access_key);

  await collect(recipient, accessKey);
  const confirmed = await p.api('POST', `/api/v1/received-invoices/${accessKey}/manifestation`, {
    key: recipient.homologationKey,
    body: { manifestation: '210200' },
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body).toMatchObject({ state: 'confirmed', manifestation: { status: 'registered' } });

  const cancelled = await p.api('POST', `/api/v1/invoices/${accessKey}/cancel`, {
    key: issuer.homologationKey,
    body: { reason: 'Pedido cancelado pelo cliente antes da entrega' },
  });
  expect(cancelled.status).toBe(502);
  expect(cancelled.body.detail).toMatchObject({ code: '221', message: expect.stringMatching(/Confirmado o recebimento/) });
  const invoice = await p.prisma.invoice.findUniqueOrThrow({ where: { id: String(created.body.invoice_id) } });
  expect(invoice.status).toBe('issued');
  const { json } = await p.sim.control('GET', `/_control/documents/${accessKey}`);
  expect((json['events'] as Array<{ tpEvento: string }>).map((e) => e.tpEvento)).toEqual(['210200']);
});
