import { Body, Get, HttpException, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { createInvoice, reissueInvoice } from '@talao/issuance/create';
import { type InvoiceRecord, isUuid } from '@talao/persistence';
import { z } from 'zod';
import { CurrentCaller } from '../auth/api-key.guard.js';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import { requestIdOf, type Caller, type GatewayResponse } from '../http/gateway-request.js';
import { sendJson } from '../http/json-answer.js';
import { validQuery } from '../http/query-validation.js';
import type { StoredResponse } from '../idempotency/idempotency-store.js';
import { IdempotentRequest } from '../idempotency/idempotent-request.js';
import { runIdempotently, type IdempotentWork } from '../idempotency/run-idempotently.js';
import { presentAmendment, presentInvalidation } from '../amendments/amendment-responses.js';
import { ApiErrors } from '../openapi/decorators.js';
import { consultAuthorizer, findCompanyInvoice } from './consult-invoice.js';
import { DocumentRequest, documentQuery } from './document-request.js';
import { invoiceJson } from './invoice-json.js';
import { IdempotencyKeyHeader, InvoiceRequestBody, IssuanceResponses } from './invoice-openapi.js';
import {
  ConsultParameters,
  ListQueryParameters,
  ReissueNotFound,
  ReissueParameters,
  SubmissionsParameters,
} from './invoice-read-openapi.js';
import { issuanceErrorResponse, outcomeResponse, presentInvoice, presentSubmission } from './invoice-responses.js';
import { InvoicesResources } from './invoices-resources.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination.js';
import { INVOICE_STATUSES, listInvoices, parseListQuery } from './list-invoices.js';
import { parseQuery } from './query-parameters.js';

const consultQuery = documentQuery({}, {});
const noQuerySchema = z.strictObject({});

/** Every answer of these routes is written here, so an invoice record's amount is a number token (invoice-json.ts). */
function send(res: GatewayResponse, response: StoredResponse): void {
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  sendJson(res, response.status, response.body, invoiceJson);
}

const notFound = () => new HttpException({ detail: 'Invoice not found' }, 404);

@ApiKeyController('invoices', 'api/v1/invoices')
export class InvoicesController {
  constructor(private readonly resources: InvoicesResources) {}

  /** Creates (or resumes) the invoice, then waits for the outcome within the window and answers it. */
  /**
   * Issues (or reissues) for the caller with the Idempotency-Key rules (`key` the header; a stored answer is replayed),
   * waits for the outcome within the window and sends the answer.
   */
  private async answerIssuance(
    context: IdempotentRequest & { res: GatewayResponse },
    operation: string,
    body: unknown,
    create: (scope: { companyId: string; environment: Caller['environment'] }) => Promise<InvoiceRecord>,
  ): Promise<void> {
    const { caller, key } = context;
    const requestId = requestIdOf(context.req);
    const scope = { companyId: caller.company.id, environment: caller.environment };
    const response = await runIdempotently({
      store: this.resources.idempotency,
      ...scope,
      key,
      operation,
      body,
      run: (work) => this.issueAndWait(work, requestId, () => create(scope), caller.company.id),
    });
    send(context.res, withRequestId(response, requestId));
  }

  private async issueAndWait(
    work: IdempotentWork,
    requestId: string,
    create: () => Promise<InvoiceRecord>,
    companyId: string,
  ): Promise<StoredResponse> {
    let invoice: InvoiceRecord | null;
    if (work.resumeInvoiceId) {
      invoice = await this.resources.invoices.findForCompany(companyId, work.resumeInvoiceId);
      if (!invoice) throw new Error(`resumed invoice ${work.resumeInvoiceId} not found`);
    } else {
      try {
        invoice = await create();
      } catch (error) {
        const mapped = issuanceErrorResponse(error, requestId);
        if (mapped) return mapped;
        throw error;
      }
      await work.invoiceCreated(invoice.id);
    }
    const created = invoice;
    // The invoice is in PostgreSQL from here on: whatever happens while waiting, the answer is its state (202 at worst).
    const justCreated = work.resumeInvoiceId ? undefined : created;
    const settled = await this.resources.waiter
      .waitForFinal(created.id, this.resources.config.issueWaitMs, justCreated)
      .catch(() => created);
    return outcomeResponse(settled ?? created, requestId);
  }

  @Post()
  @ApiOperation({
    operationId: 'createInvoice',
    summary: 'Issue an NF-e or NFS-e',
    description:
      'Validates, reserves the number, hands the document to the issuer and waits up to ISSUE_WAIT_MS (default 10 s) for the authorizer: ' +
      '201 with the invoice record when authorized, 502 with the authorizer’s message and the invoice_id when rejected; additive: 202 with the ' +
      'record when still pending (outcome by webhook or GET), 503 when the authorizer stayed unavailable. The environment comes from the API key.',
  })
  @IdempotencyKeyHeader()
  @InvoiceRequestBody()
  @IssuanceResponses('create')
  @ApiErrors(413, 415)
  async create(@IdempotentRequest() request: IdempotentRequest, @Res() res: GatewayResponse, @Body() body: unknown) {
    await this.answerIssuance({ ...request, res }, 'create_invoice', body, async (scope) => {
      const { invoice } = await createInvoice(this.resources.createDeps, { ...scope, body });
      return invoice;
    });
  }

  @Post(':invoice_id/reissue')
  @ApiOperation({
    operationId: 'reissueInvoice',
    summary: 'Reissue a rejected or failed attempt, once: the stored items, a new number, a new transmission',
    description:
      'Takes the invoice_id (a rejected document has no access key); no body. Charged like a fresh issuance; answers exactly like POST /invoices. ' +
      'An attempt is reissued once: a second reissue answers 409 naming the invoice that replaced it (`detail.replaced_by`), and GET and the ' +
      'submissions of the original show it as `replaced_by`. With the same Idempotency-Key the first response is answered again. 409 also for an ' +
      'invoice that is not rejected or failed.',
  })
  @ReissueParameters()
  @IdempotencyKeyHeader()
  @IssuanceResponses('reissue')
  @ReissueNotFound()
  async reissue(@IdempotentRequest() request: IdempotentRequest, @Res() res: GatewayResponse, @Param('invoice_id') invoiceId: string) {
    if (!isUuid(invoiceId)) throw notFound();
    await this.answerIssuance({ ...request, res }, `reissue_invoice:${invoiceId}`, {}, async (scope) => {
      const { invoice } = await reissueInvoice(this.resources.createDeps, { ...scope, invoiceId });
      return invoice;
    });
  }

  @Get()
  @ApiOperation({
    operationId: 'listInvoices',
    summary: 'The company’s invoices in the key’s environment, newest first',
    description:
      `Filters \`document_type\` and \`status\`; pages with \`page\` (from 1, default 1) and \`page_size\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}). ` +
      'Any other query parameter answers 422 (FIELD_UNKNOWN). The envelope: `total` (rows matching the filters), `total_pages`, `next_page` and ' +
      '`prev_page` (page numbers, null at the ends; past the last page `prev_page` is the last page), `data` (the page’s invoice records); ' +
      '`page` and `page_size` are additive.',
  })
  @ListQueryParameters(INVOICE_STATUSES)
  async list(@CurrentCaller() caller: Caller, @Res() res: GatewayResponse, @Query() query: Record<string, unknown>) {
    const parsed = validQuery(parseListQuery(query));
    send(res, {
      status: 200,
      body: await listInvoices(this.resources, { companyId: caller.company.id, environment: caller.environment }, parsed),
    });
  }

  @Get(':access_key')
  @ApiOperation({
    operationId: 'getInvoice',
    summary: 'One invoice: the stored record and the authorizer’s view now (consSitNFe / Sefin)',
    description:
      'Query `document_type` is required; any other query parameter answers 422. The path takes the access key (NF-e 44, NFS-e 50 digits), the ' +
      'DPS id of an NFS-e not yet authorized, or the invoice id. A key that is not the company’s answers 404 and is never sent to the authorizer. ' +
      'An unavailable authorizer is not an error: `authorizer.available` is false.',
  })
  @ConsultParameters()
  async get(@DocumentRequest(consultQuery) { scope: documentScope, lookup }: DocumentRequest, @Res() res: GatewayResponse) {
    const company = await this.resources.createDeps.companies.findById(documentScope.companyId);
    const scope = { ...documentScope, companyState: company?.state ?? '' };
    const invoice = await findCompanyInvoice(this.resources, scope, lookup);
    if (!invoice) throw notFound();
    const [replacedBy, authorizer, amendments] = await Promise.all([
      this.resources.invoices.findReplacement(invoice.id),
      consultAuthorizer(this.resources, scope, invoice),
      this.resources.amendments.listForInvoice(invoice.id),
    ]);
    send(res, {
      status: 200,
      body: { invoice: presentInvoice(invoice, replacedBy), authorizer, amendments: amendments.map(presentAmendment) },
    });
  }

  @Get(':invoice_id/submissions')
  @ApiOperation({
    operationId: 'listSubmissions',
    summary: 'Every exchange with the authorizer for the attempt, request and response exactly as transmitted',
    description:
      'Takes the invoice_id (a rejected document has no access key). `replaced_by` names the invoice that reissued this attempt. No query parameters (any → 422).',
  })
  @SubmissionsParameters()
  @ApiErrors(422)
  async submissions(
    @CurrentCaller() caller: Caller,
    @Res() res: GatewayResponse,
    @Param('invoice_id') invoiceId: string,
    @Query() query: Record<string, unknown>,
  ) {
    validQuery(parseQuery(noQuerySchema, {}, query));
    const invoice = isUuid(invoiceId) ? await this.resources.invoices.findForCompany(caller.company.id, invoiceId) : null;
    if (!invoice || invoice.environment !== caller.environment) throw notFound();
    const [submissions, replacedBy, invalidations] = await Promise.all([
      this.resources.submissions.listByInvoice(invoice.id),
      this.resources.invoices.findReplacement(invoice.id),
      invoice.documentType === 'nfe' ? this.resources.invalidations.covering(invoice) : [],
    ]);
    // The invalidation of the number (a failed attempt's gap), with its own exchanges as transmitted.
    const invalidationAttempts = await Promise.all(
      invalidations.map(async (range) => ({
        ...presentInvalidation(range),
        data: (await this.resources.invalidations.listSubmissions(range.id)).map((row) =>
          presentSubmission({ ...row, invoiceId: invoice.id, companyId: invoice.companyId }),
        ),
      })),
    );
    send(res, {
      status: 200,
      body: {
        invoice_id: invoice.id,
        reissue_of: invoice.reissueOfId,
        replaced_by: replacedBy,
        data: submissions.map(presentSubmission),
        invalidations: invalidationAttempts,
      },
    });
  }
}

/** Responses the gateway decided itself (422/409 of the key) carry this request's id like every error envelope. */
function withRequestId(response: StoredResponse & { replayed?: boolean }, requestId: string): StoredResponse {
  const { replayed, ...plain } = response;
  if (replayed) return { ...plain, headers: { ...plain.headers, 'Idempotent-Replayed': 'true' } };
  if (response.status >= 400 && !('request_id' in response.body)) return { ...plain, body: { ...plain.body, request_id: requestId } };
  return plain;
}
