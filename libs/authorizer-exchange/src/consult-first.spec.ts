// The order of the exchange, with an in-memory store and scripted answers (the real store and simulator:
// e2e/authorizers/authorizer-exchange.e2e-spec.ts): what is stored before each send, when a consult comes first,
// which bytes a resend carries.
import type { AuthorizerOutcome, PreparedCall } from '@talao/authorizer-clients';
import { exchangeConsultingFirst, type ExchangeStrategy, type Reconciled, type Settled } from './consult-first.js';
import {
  ExchangeLog,
  type NewTransmission,
  type StoredTransmission,
  type TransmissionAnswer,
  type TransmissionStore,
} from './exchange-log.js';

type Outcome = AuthorizerOutcome<string>;

/** Everything that happened, in order: stores, sends, answers. */
let events: string[];

class MemoryStore implements TransmissionStore {
  readonly rows: Array<NewTransmission & { id: string; answer?: TransmissionAnswer }> = [];

  async begin(input: NewTransmission) {
    const id = `s${this.rows.length + 1}`;
    this.rows.push({ ...input, id });
    events.push(`store ${input.operation} ${input.requestBody}`);
    return { id };
  }

  async answer(id: string, answer: TransmissionAnswer) {
    this.rows.find((row) => row.id === id)!.answer = answer;
    events.push(`answer ${id} ${answer.outcome}`);
  }
}

const exchange = (body: string, response?: string) => ({
  request: { method: 'POST', url: 'https://authorizer/ws', headers: {}, body },
  ...(response !== undefined ? { response: { status: 200, headers: {}, body: response } } : {}),
  timing: { startedAt: '2026-11-20T10:00:00.000Z', totalMs: 1 },
});
const authorized = (body: string): Outcome => ({
  status: 'authorized',
  code: '100',
  message: 'ok',
  protocol: 'P1',
  result: 'doc',
  exchanges: [exchange(body, '<ok/>')],
});
const rejected = (body: string, code: string): Outcome => ({
  status: 'rejected',
  code,
  message: `refused ${code}`,
  exchanges: [exchange(body, '<no/>')],
});
const lost = (body: string): Outcome => ({
  status: 'unknown',
  reason: 'connection-reset',
  detail: 'reset after send',
  exchanges: [exchange(body)],
});
const down = (body: string): Outcome => ({
  status: 'unavailable',
  reason: 'connection-refused',
  detail: 'refused',
  exchanges: [exchange(body)],
});

/** A call whose send records itself and answers the next scripted outcome for its operation. */
function call(operation: string, body: string, answer: (body: string) => Outcome): PreparedCall<string> {
  return {
    operation,
    method: 'POST',
    url: `https://authorizer/${operation}`,
    body,
    send: async () => {
      events.push(`send ${operation} ${body}`);
      return answer(body);
    },
  };
}

interface Script {
  /** Answers of the transmissions, in order. */
  sends: Array<(body: string) => Outcome>;
  /** What each consult finds, in order. */
  consults: Array<Reconciled<string>>;
  /** Documents built, in order (a new one after a reroute). */
  documents?: string[];
  reroute?: boolean;
}

function scripted(script: Script): ExchangeStrategy<string, string> & { built: number } {
  const documents = [...(script.documents ?? ['<doc A/>'])];
  let built = 0;
  const next = () => script.sends.shift() ?? ((body: string) => authorized(body));
  const settle = (outcome: Outcome): Settled<string> => {
    if (outcome.status === 'authorized') return { kind: 'decided', decision: `issued ${outcome.exchanges[0]!.request.body}` };
    if (outcome.status === 'rejected' && outcome.code !== '204') return { kind: 'decided', decision: `rejected ${outcome.code}` };
    if (outcome.status === 'unavailable') return { kind: 'unavailable', detail: outcome.detail };
    return { kind: 'consult' };
  };
  return {
    operation: 'Authorize',
    get built() {
      return built;
    },
    prepare() {
      built++;
      return call('Authorize', documents.shift() ?? '<doc ?/>', next());
    },
    prepareResend: (stored) => call('Authorize', stored, next()),
    settle,
    async reconcile(stored, log) {
      await log.call(
        call('Consult', `consult of ${stored}`, (body) => ({
          status: 'accepted',
          code: '200',
          message: 'ok',
          result: 'record',
          exchanges: [exchange(body, '<r/>')],
        })),
      );
      return script.consults.shift() ?? { kind: 'inconclusive', reason: 'no script' };
    },
    ...(script.reroute !== undefined ? { reroute: async () => script.reroute! } : {}),
  };
}

const history = (...rows: Array<[string, string | null]>): StoredTransmission[] =>
  rows.map(([requestBody, outcome]) => ({ operation: 'Authorize', requestBody, outcome }));

let store: MemoryStore;
let log: ExchangeLog;

beforeEach(() => {
  events = [];
  store = new MemoryStore();
  log = new ExchangeLog(store, { invoiceId: 'i1', companyId: 'c1' });
});

describe('persist before send', () => {
  it('stores each request before it is sent, and each answer before the next request', async () => {
    const strategy = scripted({ sends: [lost], consults: [{ kind: 'absent' }] });
    const result = await exchangeConsultingFirst(strategy, log, []);
    expect(result).toEqual({ kind: 'decided', decision: 'issued <doc A/>' });
    expect(events).toEqual([
      'store Authorize <doc A/>',
      'send Authorize <doc A/>',
      'answer s1 unknown',
      'store Consult consult of <doc A/>',
      'send Consult consult of <doc A/>',
      'answer s2 accepted',
      'store Authorize <doc A/>',
      'send Authorize <doc A/>',
    ]);
    // The deciding answer is held for the statement that records the decision; nothing held afterwards.
    expect(log.take()).toEqual({
      submissionId: 's3',
      answer: { responseBody: '<ok/>', httpStatus: 200, outcome: 'authorized', statusCode: '100', statusMessage: 'ok' },
    });
    expect(log.take()).toBeUndefined();
    expect(store.rows.map((row) => [row.invoiceId, row.companyId, row.operation, row.endpoint])).toEqual([
      ['i1', 'c1', 'Authorize', 'https://authorizer/Authorize'],
      ['i1', 'c1', 'Consult', 'https://authorizer/Consult'],
      ['i1', 'c1', 'Authorize', 'https://authorizer/Authorize'],
    ]);
  });

  it('a run that ends without a decision stores its last answer on flush; an answer lost with the worker stays unanswered', async () => {
    const result = await exchangeConsultingFirst(
      scripted({ sends: [lost], consults: [{ kind: 'inconclusive', reason: 'consult timed out' }] }),
      log,
      [],
    );
    expect(result).toEqual({ kind: 'retry', reason: 'consult timed out' });
    expect(store.rows.map((row) => row.answer?.outcome)).toEqual(['unknown', undefined]);
    await log.flush();
    expect(store.rows.map((row) => row.answer?.outcome)).toEqual(['unknown', 'accepted']);
  });

  it('a document that cannot be built leaves before anything is stored or sent', async () => {
    const strategy = {
      ...scripted({ sends: [], consults: [] }),
      prepare: () => {
        throw new Error('fails its schema');
      },
    };
    await expect(exchangeConsultingFirst(strategy, log, [])).rejects.toThrow('fails its schema');
    expect(events).toEqual([]);
  });
});

describe('consult first', () => {
  it.each([
    ['unanswered (the worker died around the send)', null],
    ['unknown', 'unknown'],
    ['answered but not turned into state', 'authorized'],
  ])('an earlier transmission %s: the authorizer is asked before anything is sent, and its record decides', async (_, outcome) => {
    const strategy = scripted({ sends: [], consults: [{ kind: 'decided', decision: 'issued by the record' }] });
    const result = await exchangeConsultingFirst(strategy, log, history(['<doc A/>', outcome]));
    expect(result).toEqual({ kind: 'decided', decision: 'issued by the record' });
    expect(events).toEqual(['store Consult consult of <doc A/>', 'send Consult consult of <doc A/>']);
    expect(strategy.built).toBe(0);
  });

  it('"no record" sends the stored bytes again, never a rebuilt document', async () => {
    const strategy = scripted({ sends: [], consults: [{ kind: 'absent' }], documents: ['<doc B/>'] });
    const result = await exchangeConsultingFirst(strategy, log, history(['<doc A/>', 'unavailable'], ['<doc A/>', null]));
    expect(result).toEqual({ kind: 'decided', decision: 'issued <doc A/>' });
    expect(events.filter((e) => e.startsWith('send'))).toEqual(['send Consult consult of <doc A/>', 'send Authorize <doc A/>']);
    expect(strategy.built).toBe(0);
  });

  it('an inconclusive consult sends nothing: retry later', async () => {
    const result = await exchangeConsultingFirst(
      scripted({ sends: [], consults: [{ kind: 'inconclusive', reason: 'consult unavailable' }] }),
      log,
      history(['<doc A/>', 'unknown']),
    );
    expect(result).toEqual({ kind: 'retry', reason: 'consult unavailable' });
    expect(events.filter((e) => e.startsWith('send Authorize'))).toEqual([]);
  });

  it('a settled earlier transmission (refused, unavailable) needs no consult: the document is sent', async () => {
    const strategy = scripted({ sends: [], consults: [] });
    expect(await exchangeConsultingFirst(strategy, log, history(['<old/>', 'unavailable']))).toEqual({
      kind: 'decided',
      decision: 'issued <doc A/>',
    });
    expect(events).toEqual(['store Authorize <doc A/>', 'send Authorize <doc A/>']);
  });

  it('an answer that says "already held" (204) is reconciled like a lost one', async () => {
    const strategy = scripted({
      sends: [(body) => rejected(body, '204')],
      consults: [{ kind: 'decided', decision: 'issued by the record' }],
    });
    expect(await exchangeConsultingFirst(strategy, log, [])).toEqual({ kind: 'decided', decision: 'issued by the record' });
  });

  it('sends at most maxSends times in one run', async () => {
    const strategy = scripted({ sends: [lost, lost, lost], consults: [{ kind: 'absent' }, { kind: 'absent' }, { kind: 'absent' }] });
    expect(await exchangeConsultingFirst(strategy, log, [], { maxSends: 2 })).toEqual({
      kind: 'retry',
      reason: '2 sends in one run without a decision',
    });
    expect(events.filter((e) => e.startsWith('send Authorize'))).toEqual(['send Authorize <doc A/>', 'send Authorize <doc A/>']);
  });
});

describe('unavailable', () => {
  it('without another route: unavailable, nothing consulted', async () => {
    const result = await exchangeConsultingFirst(scripted({ sends: [down], consults: [] }), log, []);
    expect(result).toEqual({ kind: 'unavailable', detail: 'refused' });
    expect(events.filter((e) => e.includes('Consult'))).toEqual([]);
  });

  it('rerouted (contingency): the next document is prepared afresh and sent', async () => {
    const strategy = scripted({ sends: [down], consults: [], documents: ['<doc A/>', '<doc A in SVC/>'], reroute: true });
    expect(await exchangeConsultingFirst(strategy, log, [])).toEqual({ kind: 'decided', decision: 'issued <doc A in SVC/>' });
    expect(strategy.built).toBe(2);
  });

  it('a rejection decides', async () => {
    expect(await exchangeConsultingFirst(scripted({ sends: [(body) => rejected(body, '778')], consults: [] }), log, [])).toEqual({
      kind: 'decided',
      decision: 'rejected 778',
    });
  });
});
