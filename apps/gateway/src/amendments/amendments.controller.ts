// POST /invoices/{access_key}/cancel (and, next to it, the other amendments): the local checks and the amendment row
// are @talao/amendments/create's; this enqueues nothing itself, waits for the canceller's outcome within
// AMENDMENT_WAIT_MS and answers it, with the Idempotency-Key rules of issuance.
import { Body, Param, Query, Res } from '@nestjs/common';
import { AmendmentRefused, requestCancellation, requestCorrection } from '@talao/amendments/create';
import type { AmendedInvoice, AmendmentRecord } from '@talao/persistence';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import type { Caller, GatewayResponse } from '../http/gateway-request.js';
import type { StoredResponse } from '../idempotency/idempotency-store.js';
import { IdempotentRequest } from '../idempotency/idempotent-request.js';
import type { IdempotentWork } from '../idempotency/run-idempotently.js';
import { amendmentOutcomeResponse, answerIdempotently } from './amendment-responses.js';
import { CancelRoute, CorrectionRoute } from './amendments-openapi.js';
import { AmendmentsResources } from './amendments-resources.js';

@ApiKeyController('invoices', 'api/v1/invoices')
export class AmendmentsController {
  constructor(private readonly resources: AmendmentsResources) {}

  /** Files (or resumes) the amendment, then waits for its outcome within the window and answers it. */
  private async amendAndWait(
    work: IdempotentWork,
    caller: Caller,
    file: () => Promise<{ invoice: AmendedInvoice; amendment: AmendmentRecord }>,
  ): Promise<StoredResponse> {
    let filed: { invoice: AmendedInvoice; amendment: AmendmentRecord };
    if (work.resumeInvoiceId) {
      // The key's progress marker holds the amendment a dead holder of the key filed: answer for it.
      const amendment = await this.resources.amendments.findById(work.resumeInvoiceId);
      const invoice = amendment && (await this.resources.invoices.invoices.findForCompany(caller.company.id, amendment.invoiceId));
      if (!amendment || !invoice) throw new Error(`resumed amendment ${work.resumeInvoiceId} not found`);
      filed = { invoice, amendment };
    } else {
      try {
        filed = await file();
      } catch (error) {
        if (error instanceof AmendmentRefused) return { status: error.status, body: { detail: error.detail } };
        throw error;
      }
      await work.invoiceCreated(filed.amendment.id);
    }
    const settled = await this.resources.waiter.waitForDecision(filed.amendment, this.resources.waitMs).catch(() => filed.amendment);
    return amendmentOutcomeResponse(filed.invoice, settled ?? filed.amendment);
  }

  // Declared before cancel, so the OpenAPI document (and its examples test) files a letter on the example NF-e
  // before cancelling it.
  @CorrectionRoute()
  async correct(
    @IdempotentRequest() { caller, req, key }: IdempotentRequest,
    @Res() res: GatewayResponse,
    @Param('access_key') accessKey: string,
    @Body() body: unknown,
  ) {
    await answerIdempotently(
      { resources: this.resources, caller, req, res, key },
      {
        operation: `correct_invoice:${accessKey}`,
        body: body ?? null,
        run: (work) =>
          this.amendAndWait(work, caller, () =>
            requestCorrection(this.resources.requestDeps, {
              companyId: caller.company.id,
              environment: caller.environment,
              key: accessKey,
              body,
            }),
          ),
      },
    );
  }

  @CancelRoute()
  async cancel(
    @IdempotentRequest() { caller, req, key }: IdempotentRequest,
    @Res() res: GatewayResponse,
    @Param('access_key') accessKey: string,
    @Query('document_type') queryDocumentType: string | undefined,
    @Body() body: unknown,
  ) {
    const scope = { companyId: caller.company.id, environment: caller.environment };
    await answerIdempotently(
      { resources: this.resources, caller, req, res, key },
      {
        operation: `cancel_invoice:${accessKey}`,
        body: { body: body ?? null, document_type: queryDocumentType ?? null },
        run: (work) =>
          this.amendAndWait(work, caller, () =>
            requestCancellation(this.resources.requestDeps, {
              ...scope,
              key: accessKey,
              body,
              ...(queryDocumentType !== undefined ? { queryDocumentType } : {}),
            }),
          ),
      },
    );
  }
}
