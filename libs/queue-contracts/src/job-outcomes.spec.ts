// The message format and its parsing; the Redis round trip itself is exercised by the issuer's e2e specs.
import { EventEmitter } from 'node:events';
import { jobOutcomeChannel, JobOutcomeSubscription, publishJobOutcome } from './job-outcomes.js';

class FakeSubscriber extends EventEmitter {
  readonly subscribed: string[] = [];

  async subscribe(channel: string): Promise<number> {
    this.subscribed.push(channel);
    return 1;
  }
}

describe('job outcomes', () => {
  const channel = jobOutcomeChannel('talao-test:bull', 'issuance');

  it('names the channel after the queue, under the queue key prefix', () => {
    expect(channel).toBe('talao-test:bull:issuance:outcomes');
  });

  it('turns messages of its channel into completed / failed events and drops anything else', async () => {
    const connection = new FakeSubscriber();
    const outcomes = new JobOutcomeSubscription(connection, channel);
    await outcomes.ready;
    expect(connection.subscribed).toEqual([channel]);
    const seen: unknown[] = [];
    outcomes.on('completed', (event) => seen.push(['completed', event]));
    outcomes.on('failed', (event) => seen.push(['failed', event]));

    connection.emit('message', channel, JSON.stringify({ jobId: 'a', returnvalue: { decided: { status: 'issued' } } }));
    connection.emit('message', channel, JSON.stringify({ jobId: 'b', failed: true }));
    connection.emit('message', 'other:channel', JSON.stringify({ jobId: 'c' }));
    connection.emit('message', channel, 'not json');
    connection.emit('message', channel, JSON.stringify({ jobId: 42 }));
    connection.emit('message', channel, 'null');

    expect(seen).toEqual([
      ['completed', { jobId: 'a', returnvalue: { decided: { status: 'issued' } } }],
      ['failed', { jobId: 'b' }],
    ]);
  });

  it('publishes without waiting, and reports a failure to publish instead of throwing', async () => {
    const published: Array<[string, string]> = [];
    publishJobOutcome(
      { publish: async (to, text) => published.push([to, text]) },
      channel,
      { jobId: 'a', returnvalue: 1 },
      () => undefined,
    );
    expect(published).toEqual([[channel, '{"jobId":"a","returnvalue":1}']]);

    const errors: string[] = [];
    publishJobOutcome({ publish: () => Promise.reject(new Error('redis away')) }, channel, { jobId: 'a' }, (error) =>
      errors.push(error.message),
    );
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    publishJobOutcome({ publish: async () => 1 }, channel, { jobId: 'b', returnvalue: circular }, (error) => errors.push(error.name));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual(['TypeError', 'redis away']);
  });
});
