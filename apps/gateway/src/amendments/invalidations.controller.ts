// POST and GET /invoices/invalidations: NF-e numbering ranges reported as unused. Registered before the invoices'
// controller, so these static paths win over /invoices/{access_key} (which captured GET and answered 422).
import { Body, Get, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AmendmentRefused, refusedForNumbersInUse, requestInvalidation } from '@talao/amendments/create';
import type { InvalidationRecord } from '@talao/persistence';
import { CurrentCaller } from '../auth/api-key.guard.js';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageEnvelope, pageOffset } from '../http/pagination.js';
import type { Caller, GatewayResponse } from '../http/gateway-request.js';
import { sendJson } from '../http/json-answer.js';
import { listQuery, validQuery } from '../http/query-validation.js';
import type { StoredResponse } from '../idempotency/idempotency-store.js';
import { IdempotentRequest } from '../idempotency/idempotent-request.js';
import { IdempotencyKeyHeader } from '../invoices/invoice-openapi.js';
import { refusedByAuthorizer } from '../http/authorizer-refusal.js';
import { answerIdempotently, presentInvalidation } from './amendment-responses.js';
import { AmendmentsResources } from './amendments-resources.js';
import { InvalidateOpenApi, ListInvalidationsOpenApi } from './invalidations-openapi.js';

function outcomeOf(invalidation: InvalidationRecord): StoredResponse {
  // Refused by the job on the service's own records, as filing refuses (409), not by the authorizer (502).
  if (refusedForNumbersInUse(invalidation))
    return {
      status: 409,
      body: { detail: { code: 'NUMBERS_AT_AUTHORIZER', message: invalidation.statusMessage, invalidation_id: invalidation.id } },
    };
  if (invalidation.status === 'rejected')
    return refusedByAuthorizer(invalidation, 'The authorizer refused the invalidation', { invalidation_id: invalidation.id });
  return { status: invalidation.status === 'registered' ? 201 : 202, body: presentInvalidation(invalidation) };
}

// No filters: the ranges are paged only.
const listInvalidationsQuery = listQuery({}, {});

@ApiKeyController('invoices', 'api/v1/invoices/invalidations')
export class InvalidationsController {
  constructor(private readonly resources: AmendmentsResources) {}

  @Post()
  @ApiOperation({
    operationId: 'invalidateNumbering',
    summary: 'Invalidate an NF-e numbering range (inutilização, NFeInutilizacao4)',
    description:
      'Body `series`, `number_start`, `number_end` (inclusive), `reason` (15 to 255). NF-e only (`document_type: nfse` → 409). The service checks ' +
      'its own records first: a number that reached the authorizer (any submission not refused before reaching it, or an invoice in flight) → ' +
      '409 NUMBERS_AT_AUTHORIZER naming the numbers and their invoice ids, without contacting the authorizer; a range overlapping one already ' +
      'invalidated → 409. Numbers ahead of the sequence may be invalidated when the range starts at the next number (else 422): the sequence ' +
      'then never issues them. SEFAZ checks again (241, 256 …: 502 with its code and message). 201 with the range and its protocol; 202 while ' +
      'pending (AMENDMENT_WAIT_MS). Accepts `Idempotency-Key`.',
  })
  @IdempotencyKeyHeader()
  @InvalidateOpenApi()
  async invalidate(@IdempotentRequest() { caller, req, key }: IdempotentRequest, @Res() res: GatewayResponse, @Body() body: unknown) {
    await answerIdempotently(
      { resources: this.resources, caller, req, res, key },
      {
        operation: 'invalidate_numbering',
        body: body ?? null,
        run: async (work) => {
          let invalidation: InvalidationRecord | null;
          if (work.resumeInvoiceId) invalidation = await this.resources.invalidations.findById(work.resumeInvoiceId);
          else {
            try {
              invalidation = await requestInvalidation(this.resources.invalidationDeps, {
                companyId: caller.company.id,
                environment: caller.environment,
                body,
              });
            } catch (error) {
              if (error instanceof AmendmentRefused) return { status: error.status, body: { detail: error.detail } };
              throw error;
            }
            await work.invoiceCreated(invalidation.id);
          }
          if (!invalidation) throw new Error('resumed invalidation not found');
          const filed = invalidation;
          const settled = await this.resources.waiter
            .waitForRecord(filed.id, this.resources.waitMs, (id) => this.resources.invalidations.findById(id))
            .catch(() => filed);
          return outcomeOf(settled ?? filed);
        },
      },
    );
  }

  @Get()
  @ApiOperation({
    operationId: 'listInvalidations',
    summary: 'The NF-e numbering ranges reported, newest first',
    description:
      `Pages like GET /invoices: \`page\` (from 1) and \`page_size\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}); the envelope ` +
      '`total`, `total_pages`, `next_page`, `prev_page`, `data` (and the additive `page`, `page_size`). Any other parameter → 422.',
  })
  @ListInvalidationsOpenApi()
  async list(@CurrentCaller() caller: Caller, @Res() res: GatewayResponse, @Query() query: Record<string, unknown>) {
    const page = validQuery(listInvalidationsQuery.parse(query));
    const { total, data } = await this.resources.invalidations.list({
      companyId: caller.company.id,
      environment: caller.environment,
      offset: pageOffset(page),
      limit: page.page_size,
    });
    sendJson(res, 200, pageEnvelope(total, page, data.map(presentInvalidation)));
  }
}
