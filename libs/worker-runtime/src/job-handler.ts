// How an app declares its handler table: a Nest controller whose methods are bound to job names with @JobHandler.
// The decorator checks each method's type against the job's contract (@talao/queue-contracts): it receives exactly
// the job's parsed payload and must return the job's result type.
import { BaseRpcContext, Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { JobName, JobPayload, JobResult, JobTry } from '@talao/queue-contracts';
import type { Job } from 'bullmq';

/** The transport handlers are bound to (handlers of another transport in a hybrid app never reach BullMQ's). */
export const BULLMQ_TRANSPORT = Symbol('bullmq');

/** Which try of the job this is: handlers decide differently on the last one (e.g. an invoice becomes `failed`). */
export interface JobAttempt extends JobTry {
  /** 1 for the first try. */
  readonly number: number;
}

/** A handler's second argument: the BullMQ job behind the message and which try of it this is. */
export class JobContext extends BaseRpcContext<[Job]> {
  readonly attempt: JobAttempt;

  constructor(job: Job) {
    super([job]);
    const number = job.attemptsMade + 1;
    this.attempt = { number, final: number >= (job.opts.attempts ?? 1) };
  }

  get job(): Job {
    return this.args[0];
  }
}

export type JobHandlerMethod<N extends JobName> = (data: JobPayload<N>, job: JobContext) => Promise<JobResult<N>>;

/**
 * Binds the method to job `name` of the worker's queue (the runtime refuses to start unless each job has exactly one
 * handler), its first parameter to the parsed payload and its second to the JobContext (Nest's @Payload and @Ctx, so
 * a handler needs no parameter decorators of its own).
 */
export function JobHandler<N extends JobName>(name: N) {
  return <M extends JobHandlerMethod<N>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    MessagePattern(name, BULLMQ_TRANSPORT)(target, key, descriptor);
    Payload()(target, key, 0);
    Ctx()(target, key, 1);
  };
}
