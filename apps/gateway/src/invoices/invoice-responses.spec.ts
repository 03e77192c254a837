import type { InvoiceOutcome } from '@talao/issuance/create';
import { outcomeResponse } from './invoice-responses.js';

const failed = (statusMessage: string | null, invalidatedById: string | null = null) =>
  ({
    id: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f',
    documentType: 'nfe',
    status: 'failed',
    statusCode: null,
    statusMessage,
    invalidatedById,
  }) as InvoiceOutcome;

describe('outcomeResponse for a failed issuance', () => {
  it('answers 409 NUMBER_INVALIDATED when the company’s own invalidation took the number before it was sent', () => {
    const message =
      'Number 126 of series 1 was invalidated (invalidation 9b19c6e2-048f-42f2-b41b-ce0e1c7cf90d) before the document was sent';
    const answer = outcomeResponse(failed(message, '9b19c6e2-048f-42f2-b41b-ce0e1c7cf90d'), 'req-1');
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      detail: { code: 'NUMBER_INVALIDATED', message, status: 'failed', invalidation_id: '9b19c6e2-048f-42f2-b41b-ce0e1c7cf90d' },
      request_id: 'req-1',
    });
  });

  it('keeps 503 for an authorizer that stayed unavailable, whatever its message says', () => {
    expect(outcomeResponse(failed('SEFAZ did not answer'), 'req-2').status).toBe(503);
    expect(outcomeResponse(failed(null), 'req-3').status).toBe(503);
    // The column decides, not the words: a message that merely reads like the invalidation's is still a 503.
    const lookalike =
      'Number 126 of series 1 was invalidated (invalidation 9b19c6e2-048f-42f2-b41b-ce0e1c7cf90d) before the document was sent';
    expect(outcomeResponse(failed(lookalike), 'req-4').status).toBe(503);
  });
});
