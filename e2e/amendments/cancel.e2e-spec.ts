// POST /api/v1/invoices/{access_key}/cancel end to end: gateway, issuer, canceller and the authorizer simulator as
// real processes, real PostgreSQL and Redis. Each case asserts what the integrator sees (HTTP) and what the platform
// and the simulator recorded.
import { jest } from '@jest/globals';
import { sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(120_000);

const p = startedForFile('platform', () =>
  startPlatform('cancel', {
    canceller: true,
    // Job options are the producer's (the gateway's): short retries.
    gatewayEnv: { AMENDMENT_WAIT_MS: '8000', QUEUE_AMENDMENTS_ATTEMPTS: '3', QUEUE_AMENDMENTS_BACKOFF_MS: '100' },
  }),
);
let company: TestCompany;

const REASON = 'Pedido cancelado pelo cliente antes da entrega';
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  company = await p.createCompany();
});

afterEach(async () => {
  await p.sim.control('DELETE', '/_control/faults');
  await p.sim.control('PUT', '/_control/clock', { offsetMs: 0 });
});

function nfseRequest(): Record<string, unknown> {
  const body = sampleNfseRequest();
  (body['items'] as Array<{ ibs_cbs: Record<string, unknown> }>)[0]!.ibs_cbs['operation_indicator'] = '100301';
  return body;
}

async function issue(body: Record<string, unknown> = sampleNfeRequest()): Promise<{ invoiceId: string; accessKey: string }> {
  const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body });
  expect(created.status).toBe(201);
  return { invoiceId: String(created.body.invoice_id), accessKey: String(created.body.access_key) };
}

const cancel = (accessKey: string, body: unknown = { reason: REASON }, headers: Record<string, string> = {}, query = '') =>
  p.api('POST', `/api/v1/invoices/${accessKey}/cancel${query}`, { key: company.homologationKey, body, headers });

/** The events the simulator registered for an NF-e (its own record, through the control API). */
async function simulatorEvents(accessKey: string): Promise<Array<{ tpEvento: string; nSeqEvento: number }>> {
  const { status, json } = await p.sim.control('GET', `/_control/documents/${accessKey}`);
  expect(status).toBe(200);
  return json['events'] as Array<{ tpEvento: string; nSeqEvento: number }>;
}

async function submissions(invoiceId: string) {
  const { status, body } = await p.api('GET', `/api/v1/invoices/${invoiceId}/submissions`, { key: company.homologationKey });
  expect(status).toBe(200);
  return body.data as Array<Record<string, unknown>>;
}

describe('NF-e cancellation', () => {
  it('200: cancelled, event invoice.cancelled in the outbox, the signed event stored before sending; a second cancel → 409', async () => {
    const { invoiceId, accessKey } = await issue();
    const answer = await cancel(accessKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ invoice_id: invoiceId, document_type: 'nfe', access_key: accessKey, status: 'cancelled' });
    expect(answer.body.cancellation).toMatchObject({ kind: 'cancellation', status: 'registered', status_code: '135', text: REASON });
    expect((answer.body.cancellation as Record<string, unknown>).protocol).toMatch(/^[0-9]{15}$/);

    const invoice = await p.prisma.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
    expect(invoice.status).toBe('cancelled');
    const events = await p.prisma.outboxEvent.findMany({ where: { aggregateId: invoiceId }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['invoice.authorized', 'invoice.cancelled']);
    expect(events[1]!.payload).toMatchObject({ invoice_id: invoiceId, access_key: accessKey, status: 'cancelled', document_type: 'nfe' });

    const sent = await submissions(invoiceId);
    expect(sent.map((s) => s.operation)).toEqual(['NFeAutorizacao4', 'NFeRecepcaoEvento4']);
    expect(sent[1]).toMatchObject({ outcome: 'accepted', status_code: '135' });
    const stored = await p.prisma.submission.findFirstOrThrow({ where: { invoiceId, operation: 'NFeRecepcaoEvento4' } });
    expect(stored.amendmentId).toBe((answer.body.cancellation as Record<string, unknown>).amendment_id);
    expect(sent[1]!.request_body).toBe(stored.requestBody);
    expect(stored.requestBody).toContain('<tpEvento>110111</tpEvento>');
    expect(stored.requestBody).toContain(`<xJust>${REASON}</xJust>`);
    expect(stored.requestBody).toContain('<Signature');

    expect((await simulatorEvents(accessKey)).map((e) => e.tpEvento)).toEqual(['110111']);
    const listed = await p.api('GET', '/api/v1/invoices?status=cancelled', { key: company.homologationKey });
    expect((listed.body.data as Array<{ invoice_id: string }>).map((row) => row.invoice_id)).toContain(invoiceId);

    const again = await cancel(accessKey);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatchObject({ code: 'ALREADY_CANCELLED', invoice_id: invoiceId });
    expect(await simulatorEvents(accessKey)).toHaveLength(1);
  });

  it('a lost answer is reconciled by consulting the authorizer: 200, one event at the simulator, no 573 surfaced', async () => {
    const { invoiceId, accessKey } = await issue();
    await p.sim.control('PUT', '/_control/faults/*', { dropResponses: 1 });
    const answer = await cancel(accessKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'cancelled' });
    expect(await simulatorEvents(accessKey)).toHaveLength(1);
    const operations = (await submissions(invoiceId)).map((s) => [s.operation, s.outcome]);
    // The event whose answer was lost, then the consult that found it registered: never sent twice.
    expect(operations).toEqual([
      ['NFeAutorizacao4', 'authorized'],
      ['NFeRecepcaoEvento4', 'unknown'],
      ['NFeConsultaProtocolo4', 'accepted'],
    ]);
  });

  it('outside the window by the service’s own record: 409 with the authorizer’s code 501, nothing sent', async () => {
    const { invoiceId, accessKey } = await issue();
    // Authorized 25 h ago as far as the service knows (the window is counted from the authorization).
    await p.prisma.invoice.update({ where: { id: invoiceId }, data: { issuedAt: new Date(Date.now() - 25 * HOUR_MS) } });
    const answer = await cancel(accessKey);
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toMatchObject({ code: '501', invoice_id: invoiceId });
    expect(String((answer.body.detail as Record<string, unknown>).message)).toMatch(/intempestivo/);
    expect(await p.prisma.amendment.count({ where: { invoiceId } })).toBe(0);
    expect(await simulatorEvents(accessKey)).toHaveLength(0);
  });

  it('outside the window at the authorizer (its clock moved 25 h on): 502 with its code and message; the invoice stays issued', async () => {
    const { invoiceId, accessKey } = await issue();
    await p.sim.control('PUT', '/_control/clock', { offsetMs: 25 * HOUR_MS });
    const answer = await cancel(accessKey);
    expect(answer.status).toBe(502);
    expect(answer.body.detail).toMatchObject({ code: '501', invoice_id: invoiceId });
    expect(String((answer.body.detail as Record<string, unknown>).message)).toMatch(/^Rejei/);
    expect((await p.prisma.invoice.findUniqueOrThrow({ where: { id: invoiceId } })).status).toBe('issued');
    expect(await p.prisma.outboxEvent.count({ where: { aggregateId: invoiceId, type: 'invoice.cancelled' } })).toBe(0);
    expect(await simulatorEvents(accessKey)).toHaveLength(0);
  });

  it('Idempotency-Key: the same key and body answer the first response again; another body → 422', async () => {
    const { accessKey } = await issue();
    const headers = { 'Idempotency-Key': `cancel-${accessKey}` };
    const first = await cancel(accessKey, { reason: REASON }, headers);
    expect(first.status).toBe(200);
    const replay = await cancel(accessKey, { reason: REASON }, headers);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await cancel(accessKey, { reason: `${REASON} (outro)` }, headers);
    expect(other.status).toBe(422);
    expect(await simulatorEvents(accessKey)).toHaveLength(1);
  });
});

describe('local refusals', () => {
  it('reason length, unknown fields, document_type (body and query), unknown key, a rejected attempt', async () => {
    const { invoiceId, accessKey } = await issue();
    const short = await cancel(accessKey, { reason: 'engano' });
    expect(short.status).toBe(422);
    expect(short.body.detail).toMatchObject({ code: 'FIELD_INVALID', field: 'reason' });
    const long = await cancel(accessKey, { reason: 'x'.repeat(256) });
    expect(long.status).toBe(422);
    // Text the event cannot carry is refused before anything is stored: it used to stay pending for ever.
    const blank = await cancel(accessKey, { reason: ' '.repeat(20) });
    expect(blank.body.detail).toMatchObject({ code: 'FIELD_INVALID', field: 'reason' });
    const emoji = await cancel(accessKey, { reason: 'Cliente desistiu da compra 🙁' });
    expect(emoji.status).toBe(422);
    expect(emoji.body.detail).toMatchObject({ code: 'FIELD_CHARACTERS_UNSUPPORTED', field: 'reason' });
    const cjk = await p.api('POST', `/api/v1/invoices/${accessKey}/correction`, {
      key: company.homologationKey,
      body: { correction: 'Correção do endereço de entrega: 東京' },
    });
    expect(cjk.body.detail).toMatchObject({ code: 'FIELD_CHARACTERS_UNSUPPORTED', field: 'correction' });
    expect((await cancel(accessKey, { reason: REASON, motivo: 'x' })).status).toBe(422);
    expect((await cancel(accessKey, { reason: REASON, document_type: 'nfe' }, {}, '?document_type=nfse')).status).toBe(422);
    expect((await cancel(accessKey, { reason: REASON, document_type: 'nfse' })).status).toBe(404);
    expect((await cancel('35261199999999000191550010000000011000000010')).status).toBe(404);
    expect(await p.prisma.amendment.count({ where: { invoiceId } })).toBe(0);

    await p.sim.control('PUT', '/_control/faults/*', { forceRejection: { code: '778', count: 1 } });
    const rejected = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    expect(rejected.status).toBe(502);
    const rejectedId = String((rejected.body.detail as Record<string, unknown>).invoice_id);
    const notIssued = await cancel(rejectedId);
    expect(notIssued.status).toBe(409);
    expect(notIssued.body.detail).toMatchObject({ code: 'NOT_ISSUED', invoice_id: rejectedId });
  });
});

describe('NFS-e cancellation', () => {
  it('200: cancelled at Sefin (e101101), document_type in the query; a second cancel → 409', async () => {
    const { invoiceId, accessKey } = await issue(nfseRequest());
    expect(accessKey).toMatch(/^[0-9]{50}$/);
    const answer = await cancel(accessKey, { reason: REASON }, {}, '?document_type=nfse');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ invoice_id: invoiceId, document_type: 'nfse', status: 'cancelled' });
    expect(answer.body.cancellation).toMatchObject({ status: 'registered' });
    const sent = await submissions(invoiceId);
    expect(sent.map((s) => s.operation)).toEqual(['POST /nfse', 'POST /nfse/eventos']);
    expect(await p.prisma.outboxEvent.count({ where: { aggregateId: invoiceId, type: 'invoice.cancelled' } })).toBe(1);
    expect((await cancel(accessKey)).status).toBe(409);
  });

  it('a lost answer is reconciled with GET /nfse/{key}/eventos/101101/1: 200, sent once', async () => {
    const { invoiceId, accessKey } = await issue(nfseRequest());
    await p.sim.control('PUT', '/_control/faults/*', { dropResponses: 1 });
    const answer = await cancel(accessKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'cancelled' });
    const operations = (await submissions(invoiceId)).map((s) => [s.operation, s.outcome]);
    expect(operations).toEqual([
      ['POST /nfse', 'authorized'],
      ['POST /nfse/eventos', 'unknown'],
      ['GET /nfse/eventos', 'accepted'],
    ]);
  });
});

describe('correction letter (CC-e)', () => {
  const correct = (accessKey: string, correction: string) =>
    p.api('POST', `/api/v1/invoices/${accessKey}/correction`, { key: company.homologationKey, body: { correction } });
  const letter = (n: number) => `Carta de correcao numero ${n}: onde se le volume 1 leia-se volumes 1 e 2`;

  it('letters 1..20 numbered by the service, each registered with the legal text; the 21st → 409 locally; the record lists them', async () => {
    const { invoiceId, accessKey } = await issue();
    for (let n = 1; n <= 20; n++) {
      const answer = await correct(accessKey, letter(n));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ invoice_id: invoiceId, status: 'issued' });
      expect(answer.body.correction).toMatchObject({ kind: 'correction', sequence: n, status: 'registered', status_code: '135' });
    }
    const stored = await p.prisma.submission.findFirstOrThrow({
      where: { invoiceId, requestBody: { contains: '<nSeqEvento>20</nSeqEvento>' } },
    });
    expect(stored.requestBody).toContain('<tpEvento>110110</tpEvento>');
    expect(stored.requestBody).toContain('<xCondUso>A Carta de Correcao e disciplinada');
    const events = await simulatorEvents(accessKey);
    expect(events.map((e) => e.nSeqEvento)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));

    const twentyFirst = await correct(accessKey, letter(21));
    expect(twentyFirst.status).toBe(409);
    expect(twentyFirst.body.detail).toMatchObject({ code: 'CORRECTION_LIMIT', invoice_id: invoiceId });
    expect(await simulatorEvents(accessKey)).toHaveLength(20);

    expect(await p.prisma.outboxEvent.count({ where: { aggregateId: invoiceId, type: 'invoice.corrected' } })).toBe(20);
    expect((await p.prisma.invoice.findUniqueOrThrow({ where: { id: invoiceId } })).status).toBe('issued');
    const record = await p.api('GET', `/api/v1/invoices/${accessKey}?document_type=nfe`, { key: company.homologationKey });
    expect(record.status).toBe(200);
    const listed = record.body.amendments as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(20);
    expect(listed[19]).toMatchObject({ kind: 'correction', sequence: 20, text: letter(20), status: 'registered' });
  });

  it('refused locally: an NFS-e (409 NFE_ONLY), a cancelled NF-e (409 CANCELLED), a text out of 15..1000 (422)', async () => {
    const nfse = await issue(nfseRequest());
    const onNfse = await correct(nfse.accessKey, letter(1));
    expect(onNfse.status).toBe(409);
    expect(onNfse.body.detail).toMatchObject({ code: 'NFE_ONLY' });

    const { invoiceId, accessKey } = await issue();
    expect((await correct(accessKey, 'curto')).status).toBe(422);
    expect((await correct(accessKey, 'x'.repeat(1001))).status).toBe(422);
    expect((await cancel(accessKey)).status).toBe(200);
    const onCancelled = await correct(accessKey, letter(1));
    expect(onCancelled.status).toBe(409);
    expect(onCancelled.body.detail).toMatchObject({ code: 'CANCELLED', invoice_id: invoiceId });
    expect((await simulatorEvents(accessKey)).map((e) => e.tpEvento)).toEqual(['110111']);
  });
});
