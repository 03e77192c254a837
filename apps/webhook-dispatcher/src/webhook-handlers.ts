// The webhooks queue's handler table: one method per job name (the runtime refuses to start otherwise).
import { Controller } from '@nestjs/common';
import type { DeliverWebhookJobResult, JobPayload } from '@talao/queue-contracts';
import { type DispatcherDependencies, runDeliverJob } from '@talao/webhooks';
import { HandlerTable, JobHandler } from '@talao/worker-runtime';

@Controller()
export class WebhookHandlers extends HandlerTable<DispatcherDependencies> {
  @JobHandler('deliver-webhook')
  deliver(data: JobPayload<'deliver-webhook'>): Promise<DeliverWebhookJobResult> {
    return runDeliverJob(this.dependencies, data);
  }
}
