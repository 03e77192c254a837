// The `render-pdf` job: the invoice's current PDF rendered from its authorized XML and stored, unless that version is
// stored already. The job carries the version its producer saw; the handler renders the version current when it
// runs (a cancellation in between only makes the job render the newer one). A Chromium crash is the engine's to
// survive (relaunch, the render retried once); a second failure throws, and BullMQ retries the job.
import { inSpan, pdfRenderDuration } from '@talao/observability';
import type { DocumentPdfsRepository, RenderSubject } from '@talao/persistence';
import type { JobPayload, RenderPdfJobResult } from '@talao/queue-contracts';
import { type CorrectionLetter, type DocumentRenderer, UnrenderableDocumentError } from '@talao/rendering';
import { pdfVersionOf, printedStatus, unprintableReason } from './pdf-version.js';

export interface RenderPdfDependencies {
  /** The invoice with its stored version and latest correction letter in one read, and the PDF's store. */
  readonly pdfs: Pick<DocumentPdfsRepository, 'loadForRender' | 'save'>;
  /** The warm renderer (started at boot; awaited, so jobs taken while Chromium starts wait for it). */
  readonly renderer: () => Promise<Pick<DocumentRenderer, 'render'>>;
}

export async function runRenderPdfJob(deps: RenderPdfDependencies, data: JobPayload<'render-pdf'>): Promise<RenderPdfJobResult> {
  const invoice = await deps.pdfs.loadForRender(data.invoiceId);
  if (!invoice) return { kind: 'unprintable', detail: 'the invoice does not exist' };
  const refusal = unprintableReason({ status: invoice.status, hasAuthorizedXml: invoice.authorizedXml !== null });
  if (refusal || !invoice.authorizedXml) return { kind: 'unprintable', detail: refusal ?? 'no authorized XML' };
  const version = pdfVersionOf(invoice);
  if (invoice.stored?.version === version) return { kind: 'stored', version, sha256: invoice.stored.sha256 };
  const renderer = await deps.renderer();
  let rendered;
  try {
    // The latest registered CC-e is printed with an NF-e (each letter replaces the previous); an NFS-e has none.
    const correction = invoice.documentType === 'nfe' ? correctionLetter(invoice.latestCorrection) : undefined;
    const xml = invoice.authorizedXml;
    rendered = await inSpan(`render ${invoice.documentType} pdf`, { 'talao.invoice.id': invoice.invoiceId }, () =>
      renderer.render(xml, { status: printedStatus(invoice), ...(correction && { correction }) }),
    );
    pdfRenderDuration.observe({ document_type: invoice.documentType }, rendered.renderMs / 1000);
  } catch (error) {
    // The stored XML is not printable: the same XML will never be, so the job completes and says why.
    if (error instanceof UnrenderableDocumentError) return { kind: 'unprintable', detail: error.message };
    throw error;
  }
  const sha256 = await deps.pdfs.save({
    invoiceId: invoice.invoiceId,
    companyId: invoice.companyId,
    version,
    pdf: rendered.pdf,
    pageCount: rendered.pageCount,
    renderMs: rendered.renderMs,
  });
  return { kind: 'rendered', version, sha256 };
}

/** The stored letter as the renderer prints it. */
function correctionLetter(latest: RenderSubject['latestCorrection']): CorrectionLetter | undefined {
  if (!latest) return undefined;
  return {
    sequence: latest.sequence,
    text: latest.text,
    ...(latest.protocol && { protocol: latest.protocol }),
    ...(latest.registeredAt && { registeredAt: latest.registeredAt.toISOString() }),
  };
}
