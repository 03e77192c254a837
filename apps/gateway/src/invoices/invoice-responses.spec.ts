import type { InvoiceOutcome } from '@talao/issuance/create';
import { outcomeResponse } from './invoice-responses.js';

const failed = (statusMessage: string | null) =>
  ({
    id: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f',
    documentType: 'nfe',
    status: 'failed',
    statusCode: null,
    statusMessage,
  }) as InvoiceOutcome;

describe('outcomeResponse for a failed issuance', () => {
  it('answers 409 NUMBER_INVALIDATED when the company’s own invalidation took the number before it was sent', () => {
    const message =
      'Number 126 of series 1 was invalidated (invalidation 9b19c6e2-048f-42f2-b41b-ce0e1c7cf90d) before the document was sent';
    const answer = outcomeResponse(failed(message), 'req-1');
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ detail: { code: 'NUMBER_INVALIDATED', message, status: 'failed' }, request_id: 'req-1' });
  });

  it('keeps 503 for an authorizer that stayed unavailable', () => {
    expect(outcomeResponse(failed('SEFAZ did not answer'), 'req-2').status).toBe(503);
    expect(outcomeResponse(failed(null), 'req-3').status).toBe(503);
  });
});
