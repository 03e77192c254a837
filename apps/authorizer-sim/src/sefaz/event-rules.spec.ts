// The simulator's manifestation and cancellation rules, at each deadline's edge (the same facts the platform checks
// locally in @talao/received-invoices/manifest; here the authority's side).
import { type StoredEvent, type StoredNfe } from '../state/sefaz-state.js';
import { eventRejection, type EventFacts } from './event-rules.js';

const DAY = 86_400_000;
const ISSUER = '12345678000195';
const RECIPIENT = '11222333000181';
const AUTHORIZED = new Date('2026-09-01T15:00:00.000Z');
const BEFORE_CUTOVER = new Date('2026-05-31T02:59:59.999Z');

const nfe = (authorizedAt = AUTHORIZED, events: StoredEvent[] = []): StoredNfe =>
  ({
    key: '3'.repeat(44),
    issuerTaxId: ISSUER,
    recipientTaxId: RECIPIENT,
    issuedAt: authorizedAt,
    authorizedAt,
    nProt: '135260000000001',
    cancelled: false,
    events,
  }) as unknown as StoredNfe;
const registered = (tpEvento: string, registeredAt: Date, authorTaxId = RECIPIENT): StoredEvent => ({
  tpEvento,
  nSeqEvento: 1,
  nProt: '1',
  registeredAt,
  authorTaxId,
  procEventoXml: '',
});
const at = (base: Date, days: number, ms = 0) => new Date(base.getTime() + days * DAY + ms);
const event = (tpEvento: string, now: Date, extra: Partial<EventFacts> = {}): EventFacts => ({
  tpEvento,
  nSeqEvento: 1,
  authorTaxId: RECIPIENT,
  eventAt: now,
  ...extra,
});
const check = (document: StoredNfe, tpEvento: string, now: Date, extra: Partial<EventFacts> = {}) =>
  eventRejection(document, event(tpEvento, now, extra), now);

describe('simulated manifestation rules', () => {
  it('awareness within 10 days, conclusive within 90 (180 for NF-e authorized before 2026-06-01), else 596', () => {
    expect(check(nfe(), '210210', at(AUTHORIZED, 10))).toBeUndefined();
    expect(check(nfe(), '210210', at(AUTHORIZED, 10, 1))).toBe('596');
    expect(check(nfe(), '210200', at(AUTHORIZED, 90))).toBeUndefined();
    expect(check(nfe(), '210200', at(AUTHORIZED, 90, 1))).toBe('596');
    expect(check(nfe(BEFORE_CUTOVER), '210220', at(BEFORE_CUTOVER, 180))).toBeUndefined();
    expect(check(nfe(BEFORE_CUTOVER), '210220', at(BEFORE_CUTOVER, 180, 1))).toBe('596');
  });

  it('a correction within 30 days of the first conclusive event, a third conclusive 573, awareness after one 655', () => {
    const first = at(AUTHORIZED, 1);
    const confirmed = nfe(AUTHORIZED, [registered('210200', first)]);
    expect(check(confirmed, '210220', at(first, 30))).toBeUndefined();
    expect(check(confirmed, '210220', at(first, 30, 1))).toBe('596');
    expect(check(confirmed, '210210', at(first, 1))).toBe('655');
    const corrected = nfe(AUTHORIZED, [registered('210200', first), registered('210220', at(first, 1))]);
    expect(check(corrected, '210240', at(first, 2), { nSeqEvento: 1 })).toBe('573');
  });

  it('a confirmation by the recipient bars the issuer’s cancellation (221); without one it goes through', () => {
    const now = at(AUTHORIZED, 0, 60_000);
    const cancel = { authorTaxId: ISSUER, protocol: '135260000000001' };
    expect(check(nfe(), '110111', now, cancel)).toBeUndefined();
    expect(check(nfe(AUTHORIZED, [registered('210210', now)]), '110111', now, cancel)).toBeUndefined();
    expect(check(nfe(AUTHORIZED, [registered('210200', now)]), '110111', now, cancel)).toBe('221');
  });
});
