// GET /invoices/{access_key}/pdf: the DANFE (NF-e) or DANFSe (NFS-e) as raw bytes. Our own rendering by default,
// rendered once per document version by the pdf-renderer and kept in PostgreSQL (document_pdfs); a request for a
// version not rendered yet enqueues the render and waits for it within PDF_WAIT_MS, then answers 503 with
// Retry-After. `source=authorizer` (NFS-e) returns the ADN's official DANFSe instead, fetched each time; 502 when the
// ADN does not give it. docs/architecture.md "Printed documents" says why.
import { createHash } from 'node:crypto';
import { Get, Headers, HttpException, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { pdfVersionOf, unprintableReason } from '@talao/documents-pdf/version';
import type { PdfLookup, StoredPdf } from '@talao/persistence';
import { z } from 'zod';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import type { GatewayResponse } from '../http/gateway-request.js';
import { InvoicesResources } from '../invoices/invoices-resources.js';
import { DocumentRequest, documentQuery } from '../invoices/document-request.js';
import { PdfParameters } from './pdf-openapi.js';
import { sendPdf } from './pdf-response.js';
import { PdfsResources } from './pdfs-resources.js';

const pdfQuery = documentQuery(
  { source: z.enum(['platform', 'authorizer']).optional() },
  { source: { expected: 'one of: platform, authorizer' } },
);

@ApiKeyController('invoices', 'api/v1/invoices')
export class PdfsController {
  constructor(
    private readonly invoices: InvoicesResources,
    private readonly resources: PdfsResources,
  ) {}

  @Get(':access_key/pdf')
  @ApiOperation({
    operationId: 'getInvoicePdf',
    summary: 'The printed document as PDF bytes: DANFE (NF-e) or DANFSe (NFS-e)',
    description:
      'Query `document_type` is required (422 without it). Only an authorized or cancelled document has a PDF: a rejected, failed or ' +
      'pending attempt answers 409 with `detail`; a key that is not the company’s 404. Rendered by the platform once per document ' +
      'version (a cancellation marks it CANCELADA and renders it again) and kept: `ETag` is the SHA-256 of the bytes, `If-None-Match` ' +
      'answers 304. A first request waits up to PDF_WAIT_MS (default 10 s) for the render, then answers 503 with `Retry-After`. ' +
      '`source=authorizer` (NFS-e only) returns the national environment’s official DANFSe instead; 502 when it is unavailable.',
  })
  @PdfParameters()
  async pdf(
    @DocumentRequest(pdfQuery) { scope, lookup, query }: DocumentRequest<z.output<typeof pdfQuery.schema>>,
    @Res() res: GatewayResponse,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
  ) {
    // One statement: the invoice (without its XML) and the PDF stored for it; a cached PDF needs nothing else.
    const invoice = lookup ? await this.invoices.pdfs.lookup(scope, lookup) : null;
    if (!invoice) throw new HttpException({ detail: 'Invoice not found' }, 404);
    const refusal = unprintableReason(invoice);
    if (refusal) throw new HttpException({ detail: refusal }, 409);
    const fileName = `${invoice.accessKey}.pdf`;
    if (query.source === 'authorizer') return this.official(res, invoice, fileName, ifNoneMatch);

    const version = pdfVersionOf(invoice);
    const stored = invoice.stored?.version === version ? invoice.stored : await this.rendered(invoice, version, res);
    sendPdf(res, fileName, stored.pdf, `"${stored.sha256}"`, ifNoneMatch);
  }

  /** The render of the version, waited for within the window (503 with Retry-After after it). */
  private async rendered(invoice: PdfLookup, version: string, res: GatewayResponse): Promise<StoredPdf> {
    const waited = await this.resources.waiter.renderAndWait(invoice.invoiceId, version, this.resources.config.waitMs);
    // The job's result is a hint (it may be missing): what is stored decides.
    const result = waited.kind === 'ended' ? waited.result : undefined;
    if (result?.kind === 'unprintable') throw new HttpException({ detail: result.detail }, 409);
    // A render that ended with a newer version (the invoice changed meanwhile) is served: it is the current one.
    const renderedVersion = result ? result.version : version;
    const rendered = await this.invoices.pdfs.find(invoice.companyId, invoice.invoiceId, renderedVersion);
    if (rendered) return rendered;
    res.setHeader('Retry-After', String(this.resources.config.retryAfterSeconds));
    throw new HttpException({ detail: 'The PDF is being rendered; ask again after Retry-After seconds' }, 503);
  }

  /** The ADN's official DANFSe (never stored: asked for precisely because it is the authorizer's current copy). */
  private async official(res: GatewayResponse, invoice: PdfLookup, fileName: string, ifNoneMatch: string | undefined): Promise<void> {
    if (invoice.documentType !== 'nfse' || !invoice.accessKey)
      throw new HttpException(
        { detail: 'source=authorizer is for an NFS-e (the national environment serves its DANFSe); SEFAZ serves no DANFE' },
        422,
      );
    const certificate = await this.invoices.certificates.findActive(invoice.companyId);
    // No certificate is the issuer's configuration (SPEC.md 400), not the authorizer's doing.
    if (!certificate)
      throw new HttpException({ detail: 'The company has no active certificate to ask the national environment with' }, 400);
    const answer = await (await this.invoices.authorizerConsult()).officialDanfse(invoice.environment, invoice.accessKey, certificate);
    // SPEC.md "Errors": a 502 carries detail.message (the authorizer's message), as every other 502 of the API does.
    if (!answer.ok) throw new HttpException({ detail: { message: answer.message, ...(answer.code && { code: answer.code }) } }, 502);
    sendPdf(res, fileName, answer.pdf, `"${createHash('sha256').update(answer.pdf).digest('hex')}"`, ifNoneMatch);
  }
}
