// Received invoices through the real processes (gateway + received-sync + simulator): documents other companies
// issued appear after POST /received-invoices/sync; GET reads PostgreSQL only (the simulator counts no query); the
// authority's 137 and 656 back-off answer 429 without a second query; a worker killed mid-page with Redis flushed
// loses and duplicates nothing.
import { jest } from '@jest/globals';
import { type ReceivedCompany, startReceivedPlatform } from './support/received-platform.js';
import { waitFor } from '../support/wait-for.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(180_000);

const p = startedForFile('platform', () => startReceivedPlatform('received-http'));

const feed = (c: ReceivedCompany, extra: Record<string, unknown> = {}) =>
  p.sim.control('POST', '/_control/third-party-documents', { recipientTaxId: c.taxId, environment: 'homologation', ...extra });

const stateOf = (c: ReceivedCompany, channel: 'nfe' | 'nfse' = 'nfe') =>
  p.prisma.receivedSyncState.findFirst({ where: { companyId: c.id, environment: 'homologation', channel } });

/** Asks for a sync and waits until its job (both channels) completed. */
async function syncAndWait(c: ReceivedCompany): Promise<string> {
  const asked = await p.api('POST', '/api/v1/received-invoices/sync', c.key);
  expect(asked.status).toBe(202);
  const jobId = String(asked.body['job_id']);
  await waitFor('the sync', async () => ((await p.jobState(jobId)) === 'completed' ? true : undefined), 20_000);
  return jobId;
}

describe('received invoices over HTTP', () => {
  it('shows third-party documents after a sync, reading PostgreSQL only', async () => {
    const c = await p.createCompany();
    const summaries = await feed(c, { count: 3, value: '1500.10' });
    const full = await feed(c, { full: true, value: '99.90', issuerTaxId: '11444777000161' });
    const jobId = await syncAndWait(c);
    expect(jobId).toBeTruthy();
    const queries = await p.queries(c.taxId);
    const adnQueries = await p.adnQueries(c.taxId);
    expect(adnQueries).toBe(1);

    const list = await p.api('GET', '/api/v1/received-invoices?document_type=nfe', c.key);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 4, total_pages: 1, page: 1, next_page: null, prev_page: null });
    // The amount is a JSON number written from the decimal text, digit for digit.
    expect(list.text).toContain('"amount":1500.10');
    const rows = list.body['data'] as Array<Record<string, unknown>>;
    const keys = (summaries.json['documents'] as Array<{ accessKey: string }>).map((d) => d.accessKey);
    expect(rows.filter((r) => keys.includes(String(r['access_key'])))).toHaveLength(3);
    const fullRow = rows.find((r) => r['access_key'] === full.json['accessKey']);
    expect(fullRow).toMatchObject({
      document_type: 'nfe',
      issuer: { tax_id: '11444777000161', name: 'FORNECEDOR 11444777000161 LTDA' },
      form: 'full',
      situation: 'authorized',
      events: [],
    });

    const filtered = await p.api('GET', '/api/v1/received-invoices?issuer_tax_id=11444777000161&form=full', c.key);
    expect(filtered.body).toMatchObject({ total: 1 });
    const none = await p.api('GET', '/api/v1/received-invoices?issued_to=2000-01-01', c.key);
    expect(none.body).toMatchObject({ total: 0, data: [] });
    const bad = await p.api('GET', '/api/v1/received-invoices?issued_from=yesterday', c.key);
    expect(bad.status).toBe(422);
    expect(bad.body['detail']).toMatchObject({ field: 'issued_from' });
    // A day that does not exist is refused, not read as the next one.
    for (const day of ['2026-11-31', '2026-02-30T10:00:00-03:00']) {
      const impossible = await p.api('GET', `/api/v1/received-invoices?issued_to=${encodeURIComponent(day)}`, c.key);
      expect({ day, status: impossible.status }).toEqual({ day, status: 422 });
    }

    const xml = await p.api('GET', `/api/v1/received-invoices/${String(full.json['accessKey'])}/xml`, c.key);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/application\/xml/);
    expect(xml.text).toMatch(/^<nfeProc [^>]*><NFe /);
    expect((await p.api('GET', `/api/v1/received-invoices/${keys[0]}/xml`, c.key)).status).toBe(404);

    // Another company sees none of it.
    const other = await p.createCompany();
    expect((await p.api('GET', '/api/v1/received-invoices', other.key)).body).toMatchObject({ total: 0 });
    expect((await p.api('GET', `/api/v1/received-invoices/${String(full.json['accessKey'])}/xml`, other.key)).status).toBe(404);
    // None of these reads reached the authority.
    expect(await p.queries(c.taxId)).toBe(queries);
    expect(await p.adnQueries(c.taxId)).toBe(adnQueries);
  });

  it('links a cancellation event to its document', async () => {
    const c = await p.createCompany();
    const doc = await feed(c);
    await syncAndWait(c);
    await p.sim.control('POST', `/_control/third-party-documents/${String(doc.json['accessKey'])}/cancellation`);
    // The first sync caught up with 138; the next one reads the event.
    await syncAndWait(c);
    const list = await p.api('GET', '/api/v1/received-invoices?situation=cancelled', c.key);
    expect(list.body).toMatchObject({ total: 1 });
    expect((list.body['data'] as Array<Record<string, unknown>>)[0]).toMatchObject({
      access_key: doc.json['accessKey'],
      situation: 'cancelled',
      events: [expect.objectContaining({ type: '110111', sequence: 1, author_tax_id: '12345678000195' })],
    });
  });

  it('after 137 and after 656 answers 429 with Retry-After and the reason, and asks the authority nothing', async () => {
    const c = await p.createCompany();
    await feed(c);
    await syncAndWait(c);
    await syncAndWait(c); // nothing new: 137
    expect((await stateOf(c))?.blockedCode).toBe('137');
    // ADN had nothing for the company: its channel pauses too, so there is nothing left to ask.
    expect((await stateOf(c, 'nfse'))?.blockedCode).toBe('NENHUM_DOCUMENTO_LOCALIZADO');
    const before = await p.queries(c.taxId);
    const adnBefore = await p.adnQueries(c.taxId);
    const refused = await p.api('POST', '/api/v1/received-invoices/sync', c.key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
    expect(refused.body['detail']).toMatch(/137/);
    expect(refused.body['request_id']).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await p.queries(c.taxId)).toBe(before);
    expect(await p.adnQueries(c.taxId)).toBe(adnBefore);

    // Our pause forgotten (as if the hour had passed here only): the authority itself refuses with 656.
    await p.prisma.receivedSyncState.updateMany({ where: { companyId: c.id }, data: { blockedUntil: null } });
    await syncAndWait(c);
    expect((await stateOf(c))?.blockedCode).toBe('656');
    const after656 = await p.queries(c.taxId);
    const again = await p.api('POST', '/api/v1/received-invoices/sync', c.key);
    expect(again.status).toBe(429);
    expect(again.body['detail']).toMatch(/656 .*Consumo Indevido/i);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await p.queries(c.taxId)).toBe(after656);
  });

  it('never runs two syncs at once: a second request while one is queued or running answers the same job', async () => {
    const c = await p.createCompany();
    await feed(c, { count: 50 });
    await p.sim.control('PUT', '/_control/faults/*', { latencyMs: 1_500 });
    try {
      const first = await p.api('POST', '/api/v1/received-invoices/sync', c.key);
      const second = await p.api('POST', '/api/v1/received-invoices/sync', c.key);
      expect([first.status, second.status]).toEqual([202, 202]);
      expect(second.body['job_id']).toBe(first.body['job_id']);
    } finally {
      await p.sim.control('DELETE', '/_control/faults');
    }
    await waitFor('the sync', async () => ((await stateOf(c))?.lastNsu === '000000000000050' ? true : undefined), 20_000);
    expect(await p.queries(c.taxId)).toBe(1);
  });

  it('a worker killed mid-sync with Redis flushed: every document once, no page skipped', async () => {
    const c = await p.createCompany();
    for (let i = 0; i < 8; i += 1) await feed(c, { count: 50 });
    // Slow pages, so the kill lands between two of them.
    await p.sim.control('PUT', '/_control/faults/*', { latencyMs: 400 });
    await p.api('POST', '/api/v1/received-invoices/sync', c.key);
    await waitFor(
      'two pages committed',
      async () => ((await p.prisma.receivedDocument.count({ where: { companyId: c.id } })) >= 100 ? true : undefined),
      20_000,
    );
    await p.restartWorker(); // SIGKILL, then a new process
    const committed = await p.prisma.receivedDocument.count({ where: { companyId: c.id } });
    expect(committed).toBeLessThan(400);
    await p.flushRedis();
    await p.sim.control('DELETE', '/_control/faults');
    expect((await p.api('POST', '/api/v1/received-invoices/sync', c.key)).status).toBe(202);
    await waitFor('the resumed sync', async () => ((await stateOf(c))?.lastNsu === '000000000000400' ? true : undefined), 30_000);
    expect(await p.prisma.receivedDocument.count({ where: { companyId: c.id } })).toBe(400);
    const nsus = await p.prisma.receivedDocument.findMany({ where: { companyId: c.id }, select: { summaryNsu: true } });
    expect(new Set(nsus.map((n) => n.summaryNsu)).size).toBe(400);
  });
});
