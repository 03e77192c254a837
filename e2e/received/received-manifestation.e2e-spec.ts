// The recipient's manifestation through the real processes (gateway + received-sync + simulator): the four codes filed
// at the national environment, the full XML fetched after awareness / confirmation / not-performed (not after unknown
// operation), every local refusal answered with the authority's code without reaching it (the simulator's record of
// the NF-e shows no event), the simulator agreeing where a request reaches it (its clock moved past 90 days), the
// confirmation barring the issuer's cancellation, and the list filters on manifestation state and deadline.
import { jest } from '@jest/globals';
import { type ReceivedCompany, type ReceivedPlatform, startReceivedPlatform } from './support/received-platform.js';
import { waitFor } from '../support/wait-for.js';

jest.setTimeout(240_000);

const DAY_MS = 86_400_000;
let p: ReceivedPlatform;

beforeAll(async () => {
  p = await startReceivedPlatform('received-manifest');
});

afterAll(async () => {
  await p?.stop();
});

/** One third-party NF-e for the company, authorized `daysAgo` days ago (the simulator's clock moved back meanwhile). */
async function received(c: ReceivedCompany, daysAgo = 0): Promise<string> {
  if (daysAgo > 0) await p.sim.control('PUT', '/_control/clock', { offsetMs: -daysAgo * DAY_MS });
  try {
    const fed = await p.sim.control('POST', '/_control/third-party-documents', { recipientTaxId: c.taxId, environment: 'homologation' });
    return String(fed.json['accessKey']);
  } finally {
    if (daysAgo > 0) await p.sim.control('PUT', '/_control/clock', { offsetMs: 0 });
  }
}

async function sync(c: ReceivedCompany): Promise<void> {
  // Our own pause after a 137 (the simulator's pace is per tax id too) would hold the next sync back: forget it.
  await p.prisma.receivedSyncState.updateMany({ where: { companyId: c.id }, data: { blockedUntil: null } });
  const asked = await p.api('POST', '/api/v1/received-invoices/sync', c.key);
  expect(asked.status).toBe(202);
  const jobId = String(asked.body['job_id']);
  await waitFor('the sync', async () => ((await p.jobState(jobId)) === 'completed' ? true : undefined), 30_000);
}

const manifest = (c: ReceivedCompany, key: string, body: unknown) =>
  p.api('POST', `/api/v1/received-invoices/${key}/manifestation`, c.key, body);

/** The events the simulator registered on the NF-e (a local refusal adds none). */
async function simEvents(key: string): Promise<string[]> {
  const held = await p.sim.control('GET', `/_control/documents/${key}`);
  return (held.json['events'] as Array<{ tpEvento: string }>).map((e) => e.tpEvento);
}

async function row(c: ReceivedCompany, key: string): Promise<Record<string, unknown>> {
  const list = await p.api('GET', '/api/v1/received-invoices?document_type=nfe&page_size=100', c.key);
  const found = (list.body['data'] as Array<Record<string, unknown>>).find((r) => r['access_key'] === key);
  if (!found) throw new Error(`${key} not listed`);
  return found;
}

const NOT_PERFORMED = { manifestation: '210240', justification: 'Mercadoria nunca foi encomendada' };

describe('manifestation over HTTP', () => {
  it('awareness then confirmation: registered at AN, the full XML fetched, awareness after it refused locally (655)', async () => {
    const c = await p.createCompany();
    const key = await received(c);
    await sync(c);
    expect((await row(c, key))['manifestation']).toMatchObject({ state: 'none', awaiting_conclusive: true, history: [] });

    const aware = await manifest(c, key, { manifestation: '210210' });
    expect(aware.status).toBe(200);
    expect(aware.body).toMatchObject({
      access_key: key,
      state: 'awareness',
      awaiting_conclusive: true,
      form: 'full',
      manifestation: { manifestation: '210210', sequence: 1, status: 'registered', status_code: '135' },
    });
    expect(String((aware.body['manifestation'] as Record<string, unknown>)['protocol'])).toMatch(/^\d{15}$/);
    const xml = await p.api('GET', `/api/v1/received-invoices/${key}/xml`, c.key);
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(/^<nfeProc /);

    const confirmed = await manifest(c, key, { manifestation: '210200' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ state: 'confirmed', awaiting_conclusive: false });
    expect(await simEvents(key)).toEqual(['210210', '210200']);

    const late = await manifest(c, key, { manifestation: '210210' });
    expect(late.status).toBe(409);
    expect(late.body['detail']).toMatchObject({ code: '655', message: expect.stringMatching(/após a manifestação final/) });
    expect(await simEvents(key)).toEqual(['210210', '210200']);
    expect(await p.prisma.receivedManifestation.count({ where: { companyId: c.id } })).toBe(2);
    // Every exchange stored before it left, with its answer.
    const exchanges = await p.prisma.receivedManifestationTransmission.findMany({ where: { manifestation: { companyId: c.id } } });
    expect(exchanges.map((e) => [e.operation, e.statusCode])).toEqual([
      ['NFeRecepcaoEvento4', '135'],
      ['NFeRecepcaoEvento4', '135'],
    ]);

    // The issuer can no longer cancel it: the authorizer's 221.
    const cancel = await p.sim.control('POST', `/_control/third-party-documents/${key}/cancellation`);
    expect(cancel.status).toBe(422);
    expect(JSON.stringify(cancel.json)).toMatch(/221/);

    const listed = await row(c, key);
    expect(listed).toMatchObject({
      form: 'full',
      manifestation: {
        state: 'confirmed',
        awaiting_conclusive: false,
        history: [
          expect.objectContaining({ manifestation: '210210', status: 'registered' }),
          expect.objectContaining({ manifestation: '210200', status: 'registered' }),
        ],
      },
    });
    const deadlines = (listed['manifestation'] as { deadlines: Record<string, string> }).deadlines;
    const authorizedAt = Date.parse(String(listed['authorized_at']));
    expect(Date.parse(deadlines['conclusive']!) - authorizedAt).toBe(90 * DAY_MS);
    expect(Date.parse(deadlines['awareness']!) - authorizedAt).toBe(10 * DAY_MS);
  });

  it('unknown operation keeps the summary; one correction, then a third conclusive event is refused (573)', async () => {
    const c = await p.createCompany();
    const key = await received(c);
    await sync(c);
    const unknown = await manifest(c, key, { manifestation: '210220' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ state: 'unknown_operation', form: 'summary' });
    const summaryOnly = await p.api('GET', `/api/v1/received-invoices/${key}/xml`, c.key);
    expect(summaryOnly.status).toBe(404);
    expect(summaryOnly.body['detail']).toMatch(/^Only the summary of this received invoice is held/);

    expect((await manifest(c, key, { manifestation: '210240' })).body['detail']).toMatchObject({ field: 'justification' });
    // Text xJust cannot carry: refused before anything is filed (it used to leave the slot in progress for ever).
    expect((await manifest(c, key, { ...NOT_PERFORMED, justification: 'Mercadoria nunca chegou 📦📦' })).body['detail']).toMatchObject({
      code: 'FIELD_CHARACTERS_UNSUPPORTED',
      field: 'justification',
    });
    const corrected = await manifest(c, key, NOT_PERFORMED);
    expect(corrected.status).toBe(200);
    expect(corrected.body).toMatchObject({
      state: 'not_performed',
      form: 'full',
      manifestation: { justification: NOT_PERFORMED.justification },
    });

    const third = await manifest(c, key, { manifestation: '210200' });
    expect(third.status).toBe(409);
    expect(third.body['detail']).toMatchObject({ code: '573' });
    expect(await simEvents(key)).toEqual(['210220', '210240']);
  });

  it('past 10 and 90 days: 596 without reaching the authority, deemed confirmed; the authority agrees when reached', async () => {
    const c = await p.createCompany();
    const eleven = await received(c, 11);
    const ninetyOne = await received(c, 91);
    const fresh = await received(c);
    await sync(c);

    const lateAwareness = await manifest(c, eleven, { manifestation: '210210' });
    expect(lateAwareness.status).toBe(409);
    expect(lateAwareness.body['detail']).toMatchObject({ code: '596', message: 'Rejeição: Evento apresentado fora do prazo: 10 dias' });
    const lateConfirmation = await manifest(c, ninetyOne, { manifestation: '210200' });
    expect(lateConfirmation.status).toBe(409);
    expect(lateConfirmation.body['detail']).toMatchObject({ code: '596', message: expect.stringMatching(/90 dias/) });
    expect(await simEvents(eleven)).toEqual([]);
    expect(await simEvents(ninetyOne)).toEqual([]);
    expect((await row(c, ninetyOne))['manifestation']).toMatchObject({ state: 'deemed_confirmed', awaiting_conclusive: false });

    // Filters: read PostgreSQL, never the authority.
    const queries = await p.queries(c.taxId);
    const keysOf = async (query: string) =>
      ((await p.api('GET', `/api/v1/received-invoices?${query}`, c.key)).body['data'] as Array<Record<string, unknown>>)
        .map((r) => r['access_key'])
        .sort();
    expect(await keysOf('manifestation_state=deemed_confirmed')).toEqual([ninetyOne]);
    expect(await keysOf('awaiting_conclusive=true')).toEqual([eleven, fresh].sort());
    const inAWeek = new Date(Date.now() + 7 * DAY_MS).toISOString();
    expect(await keysOf(`deadline_before=${encodeURIComponent(inAWeek)}`)).toEqual([]);
    const inEightyDays = new Date(Date.now() + 85 * DAY_MS).toISOString();
    expect(await keysOf(`deadline_before=${encodeURIComponent(inEightyDays)}`)).toEqual([eleven]);
    expect((await p.api('GET', '/api/v1/received-invoices?awaiting_conclusive=maybe', c.key)).status).toBe(422);
    expect(await p.queries(c.taxId)).toBe(queries);

    // Our clock says the fresh NF-e is inside its 90 days; the authority's says otherwise: it refuses with 596.
    await p.sim.control('PUT', '/_control/clock', { offsetMs: 91 * DAY_MS });
    try {
      const refused = await manifest(c, fresh, { manifestation: '210200' });
      expect(refused.status).toBe(502);
      expect(refused.body['detail']).toMatchObject({ code: '596', message: expect.stringMatching(/fora do prazo/) });
    } finally {
      await p.sim.control('PUT', '/_control/clock', { offsetMs: 0 });
    }
    // The refused slot is filed again in place, and registers now.
    const again = await manifest(c, fresh, { manifestation: '210200' });
    expect(again.status).toBe(200);
    expect(await keysOf('manifestation_state=confirmed')).toEqual([fresh]);
  });

  it('an answer lost after AN registered the event: consulted first, registered once, never sent twice', async () => {
    const c = await p.createCompany();
    const key = await received(c);
    await sync(c);
    await p.sim.control('PUT', '/_control/faults/AN', { dropResponses: 1 });
    try {
      const confirmed = await manifest(c, key, { manifestation: '210200' });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ state: 'confirmed', manifestation: { status: 'registered', status_code: '135' } });
    } finally {
      await p.sim.control('DELETE', '/_control/faults');
    }
    expect(await simEvents(key)).toEqual(['210200']);
    const exchanges = await p.prisma.receivedManifestationTransmission.findMany({
      where: { manifestation: { companyId: c.id } },
      orderBy: { sentAt: 'asc' },
    });
    // The event (its answer lost), then the consult of the issuer's state that found it: no second event.
    expect(exchanges.map((e) => [e.operation, e.outcome])).toEqual([
      ['NFeRecepcaoEvento4', 'unknown'],
      ['NFeConsultaProtocolo4', 'accepted'],
    ]);
  });

  it('answers 404 for another company’s key, and stores nothing', async () => {
    const c = await p.createCompany();
    const other = await p.createCompany();
    const key = await received(c);
    await sync(c);
    const refused = await manifest(other, key, { manifestation: '210210' });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ detail: 'Received invoice not found', request_id: expect.any(String) });
    expect(await p.prisma.receivedManifestation.count({ where: { companyId: { in: [c.id, other.id] } } })).toBe(0);
    expect(await simEvents(key)).toEqual([]);
  });
});
