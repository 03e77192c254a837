// The amendments queue's handler table: one method per job name (the runtime refuses to start otherwise).
import { Controller } from '@nestjs/common';
import { type AmendmentWorkerDependencies, runAmendJob, runInvalidateJob } from '@talao/amendments';
import type { AmendJobResult, JobPayload } from '@talao/queue-contracts';
import { HandlerTable, JobContext, JobHandler } from '@talao/worker-runtime';

@Controller()
export class AmendmentHandlers extends HandlerTable<AmendmentWorkerDependencies> {
  @JobHandler('amend')
  amend(data: JobPayload<'amend'>, job: JobContext): Promise<AmendJobResult> {
    return runAmendJob(this.dependencies.amend, data, job.attempt);
  }

  @JobHandler('invalidate')
  invalidate(data: JobPayload<'invalidate'>, job: JobContext): Promise<AmendJobResult> {
    return runInvalidateJob(this.dependencies.invalidate, data, job.attempt);
  }
}
