// The received queue's handler table: one method per job name (the runtime refuses to start otherwise).
import { Controller } from '@nestjs/common';
import type { AmendJobResult, JobPayload, SyncReceivedJobResult } from '@talao/queue-contracts';
import { type ReceivedWorkerDependencies, runManifestJob, syncReceived } from '@talao/received-invoices';
import { HandlerTable, JobContext, JobHandler } from '@talao/worker-runtime';

@Controller()
export class ReceivedHandlers extends HandlerTable<ReceivedWorkerDependencies> {
  @JobHandler('sync-received')
  syncReceived(data: JobPayload<'sync-received'>): Promise<SyncReceivedJobResult> {
    return syncReceived(this.dependencies.sync, data);
  }

  @JobHandler('manifest')
  manifest(data: JobPayload<'manifest'>, job: JobContext): Promise<AmendJobResult> {
    return runManifestJob(this.dependencies.manifest, data, job.attempt);
  }
}
