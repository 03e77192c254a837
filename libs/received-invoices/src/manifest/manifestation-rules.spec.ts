import {
  checkManifestation,
  CONCLUSIVE_CUTOVER,
  DAY_MS,
  deadlinesOf,
  type FiledManifestation,
  type ManifestationCode,
  manifestationStateOf,
} from './manifestation-rules.js';
import { parseManifestationBody } from './request-manifestation.js';

const AFTER_CUTOVER = new Date('2026-09-01T15:00:00.000Z');
const BEFORE_CUTOVER = new Date('2026-05-20T15:00:00.000Z');
const nfe = (authorizedAt: Date | null = AFTER_CUTOVER, situation = 'authorized') => ({
  documentType: 'nfe' as const,
  situation,
  authorizedAt,
});
const at = (base: Date, days: number, ms = 0) => new Date(base.getTime() + days * DAY_MS + ms);
const registered = (eventType: string, registeredAt: Date, sequence = 1): FiledManifestation => ({
  eventType,
  sequence,
  status: 'registered',
  justification: eventType === '210240' ? 'Mercadoria nunca foi recebida' : null,
  registeredAt,
});
const want = (code: ManifestationCode, justification: string | null = null) => ({ code, justification });
const code = (check: ReturnType<typeof checkManifestation>) => (check.ok === false ? check.detail.code : check.ok);

describe('manifestation deadlines', () => {
  it('awareness: accepted on the 10th day to the millisecond, 596 one millisecond later', () => {
    expect(checkManifestation(nfe(), [], want('210210'), at(AFTER_CUTOVER, 10))).toEqual({ ok: true, sequence: 1 });
    const late = checkManifestation(nfe(), [], want('210210'), at(AFTER_CUTOVER, 10, 1));
    expect(late).toEqual({
      ok: false,
      status: 409,
      detail: {
        code: '596',
        message: 'Rejeição: Evento apresentado fora do prazo: 10 dias',
        deadline: at(AFTER_CUTOVER, 10).toISOString(),
      },
    });
  });

  it('conclusive events: 90 days for an NF-e authorized from 2026-06-01 (Brasília), 180 for one authorized before', () => {
    for (const c of ['210200', '210220'] as const) {
      expect(code(checkManifestation(nfe(), [], want(c), at(AFTER_CUTOVER, 90)))).toBe(true);
      expect(code(checkManifestation(nfe(), [], want(c), at(AFTER_CUTOVER, 90, 1)))).toBe('596');
      expect(code(checkManifestation(nfe(BEFORE_CUTOVER), [], want(c), at(BEFORE_CUTOVER, 91)))).toBe(true);
      expect(code(checkManifestation(nfe(BEFORE_CUTOVER), [], want(c), at(BEFORE_CUTOVER, 180)))).toBe(true);
      expect(code(checkManifestation(nfe(BEFORE_CUTOVER), [], want(c), at(BEFORE_CUTOVER, 180, 1)))).toBe('596');
    }
    const notPerformed = want('210240', 'Mercadoria nunca foi recebida');
    expect(code(checkManifestation(nfe(), [], notPerformed, at(AFTER_CUTOVER, 90)))).toBe(true);
    expect(checkManifestation(nfe(), [], notPerformed, at(AFTER_CUTOVER, 90, 1))).toMatchObject({
      detail: { code: '596', message: 'Rejeição: Evento apresentado fora do prazo: 90 dias' },
    });
  });

  it('the cutover instant is 2026-06-01 00:00 in Brasília: one millisecond before keeps 180 days', () => {
    expect(CONCLUSIVE_CUTOVER.toISOString()).toBe('2026-06-01T03:00:00.000Z');
    expect(deadlinesOf(CONCLUSIVE_CUTOVER, []).conclusive).toEqual(at(CONCLUSIVE_CUTOVER, 90));
    const justBefore = new Date(CONCLUSIVE_CUTOVER.getTime() - 1);
    expect(deadlinesOf(justBefore, []).conclusive).toEqual(at(justBefore, 180));
  });

  it('a correction: within 30 days of the first conclusive event, inside the deadline, and only one', () => {
    const first = at(AFTER_CUTOVER, 5);
    const history = [registered('210200', first)];
    expect(checkManifestation(nfe(), history, want('210220'), at(first, 30))).toEqual({ ok: true, sequence: 1 });
    expect(checkManifestation(nfe(), history, want('210200'), at(first, 30))).toEqual({ ok: true, sequence: 2 });
    expect(checkManifestation(nfe(), history, want('210220'), at(first, 30, 1))).toMatchObject({
      detail: { code: '596', message: 'Rejeição: Evento apresentado fora do prazo: 30 dias', deadline: at(first, 30).toISOString() },
    });
    // A first event on day 80: the correction window ends with the 90 days, not 30 days later.
    const late = at(AFTER_CUTOVER, 80);
    expect(deadlinesOf(AFTER_CUTOVER, [registered('210200', late)]).correction).toEqual(at(AFTER_CUTOVER, 90));
    expect(code(checkManifestation(nfe(), [registered('210200', late)], want('210220'), at(AFTER_CUTOVER, 90, 1)))).toBe('596');
    const corrected = [...history, registered('210220', at(first, 1))];
    expect(deadlinesOf(AFTER_CUTOVER, corrected).correction).toBeNull();
    expect(checkManifestation(nfe(), corrected, want('210240', 'Mercadoria nunca foi recebida'), at(first, 2))).toMatchObject({
      detail: { code: '573', message: 'Rejeição: Duplicidade de Evento' },
    });
  });

  it('awareness after a conclusive event is 655, a second awareness 573', () => {
    const t = at(AFTER_CUTOVER, 1);
    expect(code(checkManifestation(nfe(), [registered('210220', t)], want('210210'), at(t, 1)))).toBe('655');
    expect(code(checkManifestation(nfe(), [registered('210210', t)], want('210210'), at(t, 1)))).toBe('573');
    // Awareness then a conclusive event: allowed, it is what awareness obliges.
    expect(checkManifestation(nfe(), [registered('210210', t)], want('210200'), at(t, 1))).toEqual({ ok: true, sequence: 1 });
  });

  it('refused events and the document itself: cancelled (650, 651), denied (580), NFS-e, unknown authorization', () => {
    const now = at(AFTER_CUTOVER, 1);
    expect(code(checkManifestation(nfe(AFTER_CUTOVER, 'cancelled'), [], want('210210'), now))).toBe('650');
    expect(code(checkManifestation(nfe(AFTER_CUTOVER, 'cancelled'), [], want('210220'), now))).toBe('651');
    expect(code(checkManifestation(nfe(AFTER_CUTOVER, 'denied'), [], want('210200'), now))).toBe('580');
    expect(code(checkManifestation({ ...nfe(), documentType: 'nfse' }, [], want('210200'), now))).toBe('NFE_ONLY');
    expect(code(checkManifestation(nfe(null), [], want('210200'), now))).toBe('AUTHORIZATION_UNKNOWN');
    // A rejected attempt counts for nothing.
    const refused: FiledManifestation = { ...registered('210200', now), status: 'rejected', registeredAt: null };
    expect(checkManifestation(nfe(), [refused], want('210200'), now)).toEqual({ ok: true, sequence: 1 });
  });

  it('one in flight: the same request resumes it, another one waits', () => {
    const pending: FiledManifestation = { eventType: '210200', sequence: 1, status: 'pending', justification: null, registeredAt: null };
    const now = at(AFTER_CUTOVER, 1);
    expect(checkManifestation(nfe(), [pending], want('210200'), now)).toEqual({ ok: 'in-flight', pending });
    expect(code(checkManifestation(nfe(), [pending], want('210220'), now))).toBe('MANIFESTATION_IN_PROGRESS');
  });
});

describe('manifestation state', () => {
  it('the latest conclusive event counts; none past the deadline is deemed confirmed', () => {
    const t = at(AFTER_CUTOVER, 2);
    expect(manifestationStateOf(AFTER_CUTOVER, [], at(AFTER_CUTOVER, 90))).toMatchObject({ state: 'none', awaitingConclusive: true });
    expect(manifestationStateOf(AFTER_CUTOVER, [], at(AFTER_CUTOVER, 90, 1))).toMatchObject({
      state: 'deemed_confirmed',
      awaitingConclusive: false,
    });
    expect(manifestationStateOf(AFTER_CUTOVER, [registered('210210', t)], t)).toMatchObject({
      state: 'awareness',
      awaitingConclusive: true,
    });
    expect(manifestationStateOf(AFTER_CUTOVER, [registered('210210', t)], at(AFTER_CUTOVER, 91)).state).toBe('deemed_confirmed');
    const corrected = [registered('210200', t), registered('210240', at(t, 3))];
    expect(manifestationStateOf(AFTER_CUTOVER, corrected, at(AFTER_CUTOVER, 200))).toMatchObject({
      state: 'not_performed',
      awaitingConclusive: false,
    });
  });
});

describe('manifestation body', () => {
  const refusal = (body: unknown) => {
    try {
      parseManifestationBody(body);
      return null;
    } catch (error) {
      return (error as { status: number; detail: { field: string } }).detail.field;
    }
  };

  it('takes the four codes; justification only, and required, for 210240 with 15 to 255 characters', () => {
    expect(parseManifestationBody({ manifestation: '210200' })).toEqual({ code: '210200', justification: null });
    expect(parseManifestationBody({ manifestation: '210240', justification: 'x'.repeat(15) })).toEqual({
      code: '210240',
      justification: 'x'.repeat(15),
    });
    expect(refusal({ manifestation: '210240', justification: 'x'.repeat(255) })).toBeNull();
    expect(refusal({ manifestation: '210240', justification: 'x'.repeat(256) })).toBe('justification');
    expect(refusal({ manifestation: '210240', justification: 'x'.repeat(14) })).toBe('justification');
    expect(refusal({ manifestation: '210240' })).toBe('justification');
    expect(refusal({ manifestation: '210210', justification: 'x'.repeat(20) })).toBe('justification');
    expect(refusal({ manifestation: '110111' })).toBe('manifestation');
    expect(refusal({ manifestation: 210200 })).toBe('manifestation');
    expect(refusal({})).toBe('manifestation');
    expect(refusal({ manifestation: '210200', extra: 1 })).toBe('extra');
  });
});
