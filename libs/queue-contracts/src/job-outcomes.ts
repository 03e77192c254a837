// The end of each job, announced on a Redis pub/sub channel of its queue: one small message per job, published by the
// worker as soon as the handler has returned (or thrown). It is how a producer that waits for a job (the gateway's
// POST /invoices) learns the outcome: BullMQ's QueueEvents would do it too, but it delivers every state change of
// every job (added, waiting, active, completed, drained…) and, when the platform is not saturated, each of them is a
// separate XREAD round trip that wakes Redis and the gateway — four or five per job instead of this one message.
// Pub/sub is at-most-once (a message published while a subscriber reconnects is lost), so it is a signal, never the
// record: whoever waits still backs it with a slow read of PostgreSQL.
import { EventEmitter } from 'node:events';
import type { QueueName } from './queue-names.js';

/** What a worker publishes when a job's handler has ended. `returnvalue`: the handler's answer (absent on failure). */
export interface JobOutcomeMessage {
  jobId: string;
  failed?: true;
  returnvalue?: unknown;
}

/** The channel of a queue's job outcomes, under the same prefix as the queue's keys (test runs never cross). */
export function jobOutcomeChannel(queueKeyPrefix: string, queue: QueueName): string {
  return `${queueKeyPrefix}:${queue}:outcomes`;
}

/** What publishing needs from an ioredis client (structural). */
export interface OutcomePublisher {
  publish(channel: string, message: string): Promise<unknown>;
}

/**
 * Publishes a job's end without delaying the job: the message is a hint for waiters, so a failure to publish (Redis
 * away) is reported to `onError` and otherwise ignored — the waiter's read of PostgreSQL covers it.
 */
export function publishJobOutcome(
  publisher: OutcomePublisher,
  channel: string,
  message: JobOutcomeMessage,
  onError: (error: Error) => void,
): void {
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    onError(error as Error); // a return value that does not serialize: waiters fall back to PostgreSQL
    return;
  }
  publisher.publish(channel, text).catch(onError);
}

/** What subscribing needs from an ioredis client in subscriber mode (structural). */
export interface OutcomeSubscriberConnection {
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
}

function parseOutcome(text: string): JobOutcomeMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const message = value as Partial<JobOutcomeMessage> | null;
  if (!message || typeof message !== 'object' || typeof message.jobId !== 'string') return undefined;
  return message as JobOutcomeMessage;
}

/**
 * A queue's job outcomes as events: 'completed' ({ jobId, returnvalue }) and 'failed' ({ jobId }) — the shape of
 * BullMQ's QueueEvents for those two, so a waiter written against one works with the other. A malformed message is
 * dropped (the waiter's slow read covers it). `connection` must be dedicated: a subscribed ioredis client can do
 * nothing else; give it an offline queue so the subscription is sent once connected (and ioredis re-subscribes
 * after a reconnect).
 */
export class JobOutcomeSubscription extends EventEmitter {
  /** Settles once Redis has confirmed the subscription (rejects if it refused it). */
  readonly ready: Promise<void>;

  constructor(
    connection: OutcomeSubscriberConnection,
    readonly channel: string,
  ) {
    super();
    connection.on('message', (from, text) => {
      if (from !== channel) return;
      const message = parseOutcome(text);
      if (!message) return;
      if (message.failed) this.emit('failed', { jobId: message.jobId });
      else this.emit('completed', { jobId: message.jobId, returnvalue: message.returnvalue });
    });
    this.ready = connection.subscribe(channel).then(() => undefined);
    this.ready.catch(() => undefined); // observed by whoever awaits it; never an unhandled rejection
  }
}
