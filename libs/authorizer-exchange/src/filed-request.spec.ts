// How a filed request's job ends, with an in-memory store and scripted answers (the real jobs against PostgreSQL and
// the simulator: e2e/amendments, e2e/received).
import type { AuthorizerOutcome, PreparedCall } from '@talao/authorizer-clients';
import { XmlBuildError } from '@talao/fiscal-xml';
import { RetryLaterError } from '@talao/queue-contracts';
import type { ExchangeStrategy } from './consult-first.js';
import { ExchangeLog, type StoredTransmission, type TransmissionAnswer, type TransmissionStore } from './exchange-log.js';
import { exchangeFiledRequest, filedRequestResult, isPending, refusedLocally, settledResult } from './filed-request.js';
import type { EventDecision } from './strategies/event-decision.js';

const EVENT = 'RecepcaoEvento';

class MemoryStore implements TransmissionStore {
  readonly answers: Array<[string, TransmissionAnswer['outcome']]> = [];
  private sent = 0;
  async begin() {
    return { id: `s${++this.sent}` };
  }
  async answer(id: string, answer: TransmissionAnswer) {
    this.answers.push([id, answer.outcome]);
  }
}

const exchanged = (body: string) => [
  {
    request: { method: 'POST', url: 'https://authorizer/ws', headers: {}, body },
    timing: { startedAt: '2026-11-20T10:00:00.000Z', totalMs: 1 },
  },
];

/** An event exchange whose every send answers `outcome`; a consult finds nothing registered. */
function strategy(outcome: (body: string) => AuthorizerOutcome<string>): ExchangeStrategy<EventDecision, string> {
  const call = (body: string): PreparedCall<string> => ({
    operation: EVENT,
    method: 'POST',
    url: 'https://authorizer/ws',
    body,
    send: async () => outcome(body),
  });
  return {
    operation: EVENT,
    prepare: () => call('<evento/>'),
    prepareResend: (stored) => call(stored),
    settle(answer) {
      if (answer.status === 'unavailable') return { kind: 'unavailable', detail: answer.detail };
      if (answer.status === 'unknown') return { kind: 'consult' };
      const registered = answer.status !== 'rejected';
      const protocol = registered ? '135260000000001' : null;
      return {
        kind: 'decided',
        decision: { status: registered ? 'registered' : 'rejected', protocol, statusCode: answer.code, statusMessage: answer.message },
      };
    },
    reconcile: async () => ({ kind: 'inconclusive', reason: 'the consult could not tell' }),
  };
}

const registered = (body: string): AuthorizerOutcome<string> => ({
  status: 'accepted',
  code: '135',
  message: 'Evento registrado',
  result: 'ok',
  exchanges: exchanged(body),
});
const down = (body: string): AuthorizerOutcome<string> => ({
  status: 'unavailable',
  reason: 'connection-refused',
  detail: 'ECONNREFUSED',
  exchanges: exchanged(body),
});
const lost = (body: string): AuthorizerOutcome<string> => ({
  status: 'unknown',
  reason: 'read-timeout',
  detail: 'no answer',
  exchanges: exchanged(body),
});

let store: MemoryStore;
/** Each decision written, with the outcome of the answer its statement stored (none when nothing was sent). */
let decisions: Array<EventDecision & { answered?: string }>;

function run(options: {
  certificate?: string | null;
  history?: StoredTransmission[];
  finalAttempt?: boolean;
  answer?: typeof down;
  /** The request cannot be built: its layout refuses a value. */
  unbuildable?: boolean;
}) {
  store = new MemoryStore();
  decisions = [];
  const log = new ExchangeLog(store, { invoiceId: 'i1', companyId: 'c1' });
  return exchangeFiledRequest({
    operation: EVENT,
    certificate: options.certificate === undefined ? 'A1' : options.certificate,
    strategy: () => {
      const exchange = strategy(options.answer ?? registered);
      return options.unbuildable
        ? {
            ...exchange,
            prepare: () => {
              throw new XmlBuildError('xJust: expected 15–255 printable characters');
            },
          }
        : exchange;
    },
    log,
    history: options.history ?? [],
    decide: async (decision) => {
      const answered = log.take()?.answer.outcome;
      decisions.push({ ...decision, ...(answered && { answered }) });
      return filedRequestResult(decision, true);
    },
    finalAttempt: options.finalAttempt ?? false,
  });
}

describe('exchangeFiledRequest', () => {
  it("decides by the authorizer's answer, in the statement that takes the deciding answer", async () => {
    await expect(run({})).resolves.toEqual({
      kind: 'final',
      status: 'registered',
      decided: { protocol: '135260000000001', statusCode: '135', statusMessage: 'Evento registrado' },
    });
    expect(decisions.map((decision) => decision.answered)).toEqual(['accepted']);
    expect(store.answers).toEqual([]);
  });

  it('without a certificate and nothing sent before: refused by the service, nothing sent', async () => {
    await expect(run({ certificate: null })).resolves.toEqual({
      kind: 'final',
      status: 'rejected',
      decided: { protocol: null, statusCode: null, statusMessage: 'The company has no usable certificate' },
    });
    expect(decisions).toEqual([refusedLocally('The company has no usable certificate')]);
  });

  it('a request its layout refuses is refused by the service at once, nothing sent (it would fail every retry alike)', async () => {
    await expect(run({ unbuildable: true })).resolves.toMatchObject({ status: 'rejected' });
    expect(decisions).toEqual([
      refusedLocally('The request could not be built for the authorizer: xJust: expected 15–255 printable characters'),
    ]);
    expect(store.answers).toEqual([]);
    // After a send of unknown outcome it waits instead: that send must be settled first.
    const history = [{ operation: EVENT, requestBody: '<evento/>', outcome: 'unknown' }];
    await expect(run({ unbuildable: true, history })).rejects.toThrow();
  });

  it('without a certificate after a send of unknown outcome: waits for one to settle it with', async () => {
    const history = [{ operation: EVENT, requestBody: '<evento/>', outcome: 'unknown' }];
    await expect(run({ certificate: null, history })).rejects.toThrow(RetryLaterError);
    // A transmission of another operation does not hold the request.
    await expect(run({ certificate: null, history: [{ ...history[0]!, operation: 'Consulta' }] })).resolves.toMatchObject({
      status: 'rejected',
    });
  });

  it('an authorizer unavailable is retried, and refused as such on the last try', async () => {
    await expect(run({ answer: down })).rejects.toThrow(new RetryLaterError('authorizer unavailable: ECONNREFUSED'));
    expect(decisions).toEqual([]);
    expect(store.answers).toEqual([['s1', 'unavailable']]);
    await expect(run({ answer: down, finalAttempt: true })).resolves.toMatchObject({ status: 'rejected' });
    // The refusal is written with the answer that showed the authorizer down.
    expect(decisions).toEqual([{ ...refusedLocally('Authorizer unavailable after every retry: ECONNREFUSED'), answered: 'unavailable' }]);
  });

  it('an outcome still unknown is retried even on the last try, its answer stored', async () => {
    await expect(run({ answer: lost, finalAttempt: true })).rejects.toThrow(new RetryLaterError('the consult could not tell'));
    expect(decisions).toEqual([]);
    expect(store.answers).toEqual([['s1', 'unknown']]);
  });
});

describe('a filed request found by its job', () => {
  it('is filed only while pending; gone it is skipped, decided it is final already', () => {
    const pending = { id: 'r1', status: 'pending' as const };
    expect(isPending(pending)).toBe(true);
    expect(isPending({ ...pending, status: 'registered' })).toBe(false);
    expect(isPending(null)).toBe(false);
    expect(settledResult(null, 'invalidation')).toEqual({ kind: 'skipped', reason: 'no such invalidation' });
    expect(settledResult({ status: 'rejected' }, 'manifestation')).toEqual({ kind: 'final', status: 'rejected', alreadyFinal: true });
    expect(settledResult({ status: 'registered' }, 'amendment')).toEqual({ kind: 'final', status: 'registered', alreadyFinal: true });
  });
});
