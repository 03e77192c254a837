// The pdf queue's handler table: one method per job name (the runtime refuses to start otherwise).
import { Controller, Inject } from '@nestjs/common';
import { type PdfWorkerDependencies, runRenderPdfJob } from '@talao/documents-pdf';
import type { JobPayload, RenderPdfJobResult } from '@talao/queue-contracts';
import { JobHandler, WORKER_DEPENDENCIES } from '@talao/worker-runtime';

@Controller()
export class PdfHandlers {
  constructor(@Inject(WORKER_DEPENDENCIES) private readonly dependencies: PdfWorkerDependencies) {}

  @JobHandler('render-pdf')
  renderPdf(data: JobPayload<'render-pdf'>): Promise<RenderPdfJobResult> {
    return runRenderPdfJob(this.dependencies.render, data);
  }
}
