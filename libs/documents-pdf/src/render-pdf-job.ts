// The `render-pdf` job: the invoice's current PDF rendered from its authorized XML and stored, unless that version is
// stored already. The job carries the version its producer saw; the handler renders the version current when it
// runs (a cancellation in between only makes the job render the newer one). A Chromium crash is the engine's to
// survive (relaunch, the render retried once); a second failure throws, and BullMQ retries the job.
import { inSpan, pdfRenderDuration } from '@talao/observability';
import type { AmendmentRecord, AmendmentsRepository, DocumentPdfsRepository, InvoicesRepository } from '@talao/persistence';
import type { JobPayload, RenderPdfJobResult } from '@talao/queue-contracts';
import { type CorrectionLetter, type DocumentRenderer, UnrenderableDocumentError } from '@talao/rendering';
import { pdfVersionOf, printedStatus, unprintableReason } from './pdf-version.js';

export interface RenderPdfDependencies {
  readonly invoices: Pick<InvoicesRepository, 'findById'>;
  readonly pdfs: Pick<DocumentPdfsRepository, 'storedVersion' | 'save'>;
  /** The correction letters filed on the invoice: the latest registered one is printed (each replaces the previous). */
  readonly amendments: Pick<AmendmentsRepository, 'listForInvoice'>;
  /** The warm renderer (started at boot; awaited, so jobs taken while Chromium starts wait for it). */
  readonly renderer: () => Promise<Pick<DocumentRenderer, 'render'>>;
}

export async function runRenderPdfJob(deps: RenderPdfDependencies, data: JobPayload<'render-pdf'>): Promise<RenderPdfJobResult> {
  const invoice = await deps.invoices.findById(data.invoiceId);
  if (!invoice) return { kind: 'unprintable', detail: 'the invoice does not exist' };
  const refusal = unprintableReason({ status: invoice.status, hasAuthorizedXml: invoice.authorizedXml !== null });
  if (refusal || !invoice.authorizedXml) return { kind: 'unprintable', detail: refusal ?? 'no authorized XML' };
  const version = pdfVersionOf(invoice);
  const stored = await deps.pdfs.storedVersion(invoice.id);
  if (stored?.version === version) return { kind: 'stored', version, sha256: stored.sha256 };
  const renderer = await deps.renderer();
  let rendered;
  try {
    const correction = invoice.documentType === 'nfe' ? latestCorrection(await deps.amendments.listForInvoice(invoice.id)) : undefined;
    const xml = invoice.authorizedXml;
    rendered = await inSpan(`render ${invoice.documentType} pdf`, { 'talao.invoice.id': invoice.id }, () =>
      renderer.render(xml, { status: printedStatus(invoice), ...(correction && { correction }) }),
    );
    pdfRenderDuration.observe({ document_type: invoice.documentType }, rendered.renderMs / 1000);
  } catch (error) {
    // The stored XML is not printable: the same XML will never be, so the job completes and says why.
    if (error instanceof UnrenderableDocumentError) return { kind: 'unprintable', detail: error.message };
    throw error;
  }
  const sha256 = await deps.pdfs.save({
    invoiceId: invoice.id,
    companyId: invoice.companyId,
    version,
    pdf: rendered.pdf,
    pageCount: rendered.pageCount,
    renderMs: rendered.renderMs,
  });
  return { kind: 'rendered', version, sha256 };
}

/** The registered CC-e with the highest sequence, as the renderer prints it; undefined when there is none. */
export function latestCorrection(amendments: readonly AmendmentRecord[]): CorrectionLetter | undefined {
  const letters = amendments.filter((a) => a.kind === 'correction' && a.status === 'registered');
  const latest = letters.reduce<AmendmentRecord | undefined>((best, a) => (!best || a.sequence > best.sequence ? a : best), undefined);
  if (!latest) return undefined;
  return {
    sequence: latest.sequence,
    text: latest.text,
    ...(latest.protocol && { protocol: latest.protocol }),
    ...(latest.registeredAt && { registeredAt: latest.registeredAt.toISOString() }),
  };
}
