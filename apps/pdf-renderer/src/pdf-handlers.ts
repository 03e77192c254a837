// The pdf queue's handler table: one method per job name (the runtime refuses to start otherwise).
import { Controller } from '@nestjs/common';
import { type PdfWorkerDependencies, runRenderPdfJob } from '@talao/documents-pdf';
import type { JobPayload, RenderPdfJobResult } from '@talao/queue-contracts';
import { HandlerTable, JobHandler } from '@talao/worker-runtime';

@Controller()
export class PdfHandlers extends HandlerTable<PdfWorkerDependencies> {
  @JobHandler('render-pdf')
  renderPdf(data: JobPayload<'render-pdf'>): Promise<RenderPdfJobResult> {
    return runRenderPdfJob(this.dependencies.render, data);
  }
}
