import { Body, Controller, Get, Headers, HttpException, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { createInvoice, reissueInvoice } from '@talao/issuance/create';
import type { InvoiceRecord } from '@talao/persistence';
import { ApiKeyGuard, CurrentCaller } from '../auth/api-key.guard.js';
import { requestIdOf, type Caller, type GatewayRequest, type GatewayResponse } from '../http/gateway-request.js';
import type { StoredResponse } from '../idempotency/idempotency-store.js';
import { runIdempotently, type IdempotentWork } from '../idempotency/run-idempotently.js';
import { ApiErrors } from '../openapi/decorators.js';
import { consultAuthorizer, findCompanyInvoice } from './consult-invoice.js';
import {
  consultSchema, IdempotencyKeyHeader, InvoiceRequestBody, invoicePageSchema, IssuanceResponses, submissionsSchema,
} from './invoice-openapi.js';
import { issuanceErrorResponse, outcomeResponse, presentInvoice, presentSubmission } from './invoice-responses.js';
import { InvoicesResources } from './invoices-resources.js';
import { INVOICE_STATUSES, listInvoices, parseListQuery } from './list-invoices.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function send(res: GatewayResponse, response: StoredResponse): void {
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  res.statusCode = response.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(response.body));
}

@ApiTags('invoices')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('api/v1/invoices')
export class InvoicesController {
  constructor(private readonly resources: InvoicesResources) {}

  /** Creates (or resumes) the invoice, then waits for the outcome within the window and answers it. */
  private async issueAndWait(work: IdempotentWork, requestId: string, create: () => Promise<InvoiceRecord>, companyId: string): Promise<StoredResponse> {
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
    const settled = await this.resources.waiter.waitForFinal(created.id, this.resources.config.issueWaitMs, justCreated).catch(() => created);
    return outcomeResponse(settled ?? created, requestId);
  }

  @Post()
  @ApiOperation({
    operationId: 'createInvoice',
    summary: 'Issue an NF-e or NFS-e',
    description:
      'Validates, reserves the number, hands the document to the issuer and waits up to ISSUE_WAIT_MS (default 10 s) for the authorizer: ' +
      '201 when authorized, 502 with the authorizer’s message when rejected, 202 when still pending (outcome by webhook or GET). ' +
      'The environment comes from the API key.',
  })
  @IdempotencyKeyHeader()
  @InvoiceRequestBody()
  @IssuanceResponses()
  @ApiErrors(401, 413, 415, 429)
  async create(@CurrentCaller() caller: Caller, @Req() req: GatewayRequest, @Res() res: GatewayResponse, @Headers('idempotency-key') key: string | undefined, @Body() body: unknown) {
    const requestId = requestIdOf(req);
    const response = await runIdempotently({
      store: this.resources.idempotency, companyId: caller.company.id, environment: caller.environment, key, operation: 'create_invoice', body,
      run: (work) => this.issueAndWait(work, requestId, async () => {
        const { invoice } = await createInvoice(this.resources.createDeps, { companyId: caller.company.id, environment: caller.environment, body });
        return invoice;
      }, caller.company.id),
    });
    send(res, withRequestId(response, requestId));
  }

  @Post(':invoice_id/reissue')
  @ApiOperation({
    operationId: 'reissueInvoice',
    summary: 'Reissue a rejected or failed invoice: the stored items, a new number, a new transmission',
    description: 'Charged like a fresh issuance; answers exactly like POST /invoices. 409 for an invoice that is not rejected or failed.',
  })
  @ApiParam({ name: 'invoice_id', schema: { type: 'string', format: 'uuid' } })
  @IdempotencyKeyHeader()
  @IssuanceResponses()
  @ApiErrors(401, 404, 429)
  async reissue(@CurrentCaller() caller: Caller, @Req() req: GatewayRequest, @Res() res: GatewayResponse, @Headers('idempotency-key') key: string | undefined, @Param('invoice_id') invoiceId: string) {
    const requestId = requestIdOf(req);
    if (!UUID.test(invoiceId)) throw new HttpException({ detail: 'Invoice not found' }, 404);
    const response = await runIdempotently({
      store: this.resources.idempotency, companyId: caller.company.id, environment: caller.environment, key, operation: `reissue_invoice:${invoiceId}`, body: {},
      run: (work) => this.issueAndWait(work, requestId, async () => {
        const { invoice } = await reissueInvoice(this.resources.createDeps, { companyId: caller.company.id, environment: caller.environment, invoiceId });
        return invoice;
      }, caller.company.id),
    });
    send(res, withRequestId(response, requestId));
  }

  @Get()
  @ApiOperation({ operationId: 'listInvoices', summary: 'The company’s invoices in the key’s environment, newest first' })
  @ApiQuery({ name: 'document_type', required: false, enum: ['nfe', 'nfse'] })
  @ApiQuery({ name: 'status', required: false, enum: INVOICE_STATUSES, description: 'issued, rejected, cancelled; additive: processing, failed' })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
  @ApiQuery({ name: 'page_size', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
  @ApiResponse({ status: 200, description: 'A page of invoices', schema: invoicePageSchema as never })
  @ApiErrors(401, 422, 429)
  async list(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>) {
    const parsed = parseListQuery(query);
    if (!parsed.ok) throw new HttpException({ detail: parsed.errors[0], errors: parsed.errors }, 422);
    return listInvoices(this.resources, { companyId: caller.company.id, environment: caller.environment }, parsed.value);
  }

  @Get(':access_key')
  @ApiOperation({
    operationId: 'getInvoice',
    summary: 'One invoice: the stored record and the authorizer’s view now (consSitNFe / Sefin)',
    description:
      'The path takes the access key (NF-e 44, NFS-e 50 digits), the DPS id of an NFS-e not yet authorized, or the invoice id. ' +
      'A key that is not the company’s answers 404 and is never sent to the authorizer. An unavailable authorizer is not an error: ' +
      '`authorizer.available` is false.',
  })
  @ApiParam({ name: 'access_key', schema: { type: 'string' } })
  @ApiQuery({ name: 'document_type', required: true, enum: ['nfe', 'nfse'] })
  @ApiResponse({ status: 200, description: 'The invoice and the authorizer’s view', schema: consultSchema as never })
  @ApiErrors(401, 404, 422, 429)
  async get(@CurrentCaller() caller: Caller, @Param('access_key') key: string, @Query('document_type') documentType: unknown) {
    if (documentType !== 'nfe' && documentType !== 'nfse') {
      const received = typeof documentType === 'string' ? documentType : null;
      const error = { code: received === null ? 'FIELD_REQUIRED' : 'FIELD_INVALID', field: 'document_type', message: 'document_type must be nfe or nfse', expected: 'one of: nfe, nfse', received };
      throw new HttpException({ detail: error, errors: [error] }, 422);
    }
    const company = await this.resources.createDeps.companies.findById(caller.company.id);
    const scope = { companyId: caller.company.id, companyState: company?.state ?? '', environment: caller.environment, documentType: documentType as 'nfe' | 'nfse' };
    const invoice = await findCompanyInvoice(this.resources, scope, key);
    if (!invoice) throw new HttpException({ detail: 'Invoice not found' }, 404);
    return { invoice: presentInvoice(invoice), authorizer: await consultAuthorizer(this.resources, scope, invoice) };
  }

  @Get(':invoice_id/submissions')
  @ApiOperation({ operationId: 'listSubmissions', summary: 'Every exchange with the authorizer for the invoice, request and response exactly as transmitted' })
  @ApiParam({ name: 'invoice_id', schema: { type: 'string', format: 'uuid' } })
  @ApiResponse({ status: 200, description: 'The submissions, oldest first', schema: submissionsSchema as never })
  @ApiErrors(401, 404, 429)
  async submissions(@CurrentCaller() caller: Caller, @Param('invoice_id') invoiceId: string) {
    const invoice = UUID.test(invoiceId) ? await this.resources.invoices.findForCompany(caller.company.id, invoiceId) : null;
    if (!invoice || invoice.environment !== caller.environment) throw new HttpException({ detail: 'Invoice not found' }, 404);
    const submissions = await this.resources.submissions.listByInvoice(invoice.id);
    return { invoice_id: invoice.id, data: submissions.map(presentSubmission) };
  }
}

/** Responses the gateway decided itself (422/409 of the key) carry this request's id like every error envelope. */
function withRequestId(response: StoredResponse & { replayed?: boolean }, requestId: string): StoredResponse {
  const { replayed, ...plain } = response;
  if (replayed) return { ...plain, headers: { ...plain.headers, 'Idempotent-Replayed': 'true' } };
  if (response.status >= 400 && !('request_id' in response.body)) return { ...plain, body: { ...plain.body, request_id: requestId } };
  return plain;
}
