// The issuance queue's handler table: one method per job name (the runtime refuses to start otherwise).
import { Controller } from '@nestjs/common';
import { type IssuanceWorkerDependencies, runIssueJob } from '@talao/issuance';
import type { IssueJobResult, JobPayload } from '@talao/queue-contracts';
import { HandlerTable, JobContext, JobHandler } from '@talao/worker-runtime';

@Controller()
export class IssuanceHandlers extends HandlerTable<IssuanceWorkerDependencies> {
  @JobHandler('issue')
  issue(data: JobPayload<'issue'>, job: JobContext): Promise<IssueJobResult> {
    return runIssueJob(this.dependencies.issue, data, job.attempt);
  }
}
