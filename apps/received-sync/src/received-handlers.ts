// The received queue's handler table: one method per job name (the runtime refuses to start otherwise).
import { Controller, Inject } from '@nestjs/common';
import type { AmendJobResult, JobPayload, SyncReceivedJobResult } from '@talao/queue-contracts';
import { type ReceivedWorkerDependencies, runManifestJob, syncReceived } from '@talao/received-invoices';
import { JobContext, JobHandler, WORKER_DEPENDENCIES } from '@talao/worker-runtime';

@Controller()
export class ReceivedHandlers {
  constructor(@Inject(WORKER_DEPENDENCIES) private readonly dependencies: ReceivedWorkerDependencies) {}

  @JobHandler('sync-received')
  syncReceived(data: JobPayload<'sync-received'>): Promise<SyncReceivedJobResult> {
    return syncReceived(this.dependencies.sync, data);
  }

  @JobHandler('manifest')
  manifest(data: JobPayload<'manifest'>, job: JobContext): Promise<AmendJobResult> {
    return runManifestJob(this.dependencies.manifest, data, job.attempt);
  }
}
