// POST /invoices/invalidations, the request side: the body, the document type (NF-e only), then the service's own
// records under the sequence's lock (InvalidationsRepository.file): a number that reached the authorizer → 409 naming
// the numbers and their invoice ids, without contacting the authorizer; a range already invalidated → 409; a range
// that would skip numbers ahead of the sequence → 422. Filed, the sequence never issues those numbers; the job tells
// SEFAZ, which checks again (241, 256, 563 …).
import type { EnvironmentName, FileInvalidationResult, InvalidationRecord, NewInvalidation } from '@talao/persistence';
import { enqueueJob, type EnqueueTarget } from '@talao/queue-contracts';
import { z } from 'zod';
import { layoutText } from '@talao/fiscal-model';
import { AmendmentRefused, bodyRefusal } from './amendment-errors.js';
import { numbersInUseRefusal } from './numbers-in-use.js';

/** NFeInutilizacao4 accepts at most this many numbers per request (201 beyond it): refused here first. */
export const MAX_INVALIDATION_RANGE = 10_000;

const invalidationBody = z.strictObject({
  series: z.number().int().min(0).max(999),
  number_start: z.number().int().min(1).max(999_999_999),
  number_end: z.number().int().min(1).max(999_999_999),
  reason: layoutText({ min: 15, max: 255 }),
  document_type: z.enum(['nfe', 'nfse']).optional(),
});

export interface InvalidationRequestDeps {
  invalidations: { file(input: NewInvalidation): Promise<FileInvalidationResult> };
  queue: EnqueueTarget;
}

export interface InvalidationRequest {
  companyId: string;
  environment: EnvironmentName;
  body: unknown;
}

export async function requestInvalidation(deps: InvalidationRequestDeps, request: InvalidationRequest): Promise<InvalidationRecord> {
  const parsed = invalidationBody.safeParse(request.body ?? {});
  if (!parsed.success) throw bodyRefusal(parsed.error);
  const body = parsed.data;
  if (body.document_type === 'nfse')
    throw new AmendmentRefused(409, { code: 'NFE_ONLY', message: 'Numbering invalidation exists for the NF-e only' });
  if (body.number_end < body.number_start)
    throw new AmendmentRefused(422, { code: 'FIELD_INVALID', field: 'number_end', message: 'number_end must not be below number_start' });
  if (body.number_end - body.number_start + 1 > MAX_INVALIDATION_RANGE)
    throw new AmendmentRefused(422, {
      code: 'FIELD_INVALID',
      field: 'number_end',
      message: `at most ${MAX_INVALIDATION_RANGE} numbers per invalidation`,
    });
  const filed = await deps.invalidations.file({
    companyId: request.companyId,
    environment: request.environment,
    series: body.series,
    numberStart: body.number_start,
    numberEnd: body.number_end,
    reason: body.reason,
  });
  switch (filed.kind) {
    case 'conflict':
      throw numbersInUseRefusal(filed.invoices);
    case 'overlap':
      throw new AmendmentRefused(409, {
        code: 'ALREADY_INVALIDATED',
        message: `The range overlaps ranges already invalidated: ${filed.ranges.map((r) => `${r.numberStart}-${r.numberEnd}`).join(', ')}`,
        invalidation_ids: filed.ranges.map((r) => r.id),
      });
    case 'gap':
      throw new AmendmentRefused(422, {
        code: 'RANGE_AHEAD_OF_SEQUENCE',
        field: 'number_start',
        message: `The next number of series ${body.series} is ${filed.nextNumber}: start the range there, so no number is skipped without being invalidated`,
      });
    case 'filed':
      break;
  }
  // Redis refusing the job leaves the range `pending` (safe in PostgreSQL); the same request again answers 409 with it.
  await enqueueJob({ amendments: deps.queue }, { name: 'invalidate', data: { invalidationId: filed.invalidation.id } }).catch(
    () => undefined,
  );
  return filed.invalidation;
}
