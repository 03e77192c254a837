import { JOB_DEFINITIONS, type JobName, type JobPayload } from './job-payloads.js';
import type { QueueName } from './queue-names.js';

/** Which try of the job this is: handlers decide differently on the last one (e.g. an invoice becomes `failed`). */
export interface JobAttempt {
  /** 1 for the first try. */
  readonly number: number;
  readonly final: boolean;
}

export interface JobHandlerRegistration<N extends JobName = JobName> {
  readonly name: N;
  readonly handle: (data: JobPayload<N>, attempt: JobAttempt) => Promise<unknown>;
}

export type JobHandlers = ReadonlyArray<{ [N in JobName]: JobHandlerRegistration<N> }[JobName]>;

/**
 * The startup check: every job of the queue has exactly one handler and no handler names an unknown job or a job of
 * another queue. Throws with every problem listed, so the worker refuses to start instead of failing jobs later.
 */
export function assertHandlersCover(queue: QueueName, handlers: JobHandlers): void {
  const problems: string[] = [];
  const counts = new Map<string, number>();
  for (const handler of handlers) counts.set(handler.name, (counts.get(handler.name) ?? 0) + 1);
  for (const [name, count] of counts) {
    const definition = (JOB_DEFINITIONS as Record<string, { queue: QueueName } | undefined>)[name];
    if (!definition) problems.push(`handler for unknown job "${name}"`);
    else if (definition.queue !== queue) problems.push(`job "${name}" belongs to queue "${definition.queue}", not "${queue}"`);
    if (count > 1) problems.push(`job "${name}" has ${count} handlers`);
  }
  for (const [name, definition] of Object.entries(JOB_DEFINITIONS)) {
    if (definition.queue === queue && !counts.has(name)) problems.push(`job "${name}" has no handler`);
  }
  if (problems.length > 0) throw new Error(`queue "${queue}": ${problems.join('; ')}`);
}
