import { jobOptionsFor } from './job-options.js';
import { jobIdOf, parseJobPayload } from './job-payloads.js';
import { queueKeyPrefix } from './queue-names.js';

const invoiceId = '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f';

describe('job contracts', () => {
  it('uses the invoice id as jobId', () => {
    expect(jobIdOf({ name: 'issue', data: { invoiceId } })).toBe(invoiceId);
  });

  it('keys a render-pdf job by invoice and version (a new version is a new job), with no ":" (BullMQ refuses it)', () => {
    expect(jobIdOf({ name: 'render-pdf', data: { invoiceId, version: 'r1.cancelled.mi4x8k2a' } })).toBe(
      `pdf.${invoiceId}.r1.cancelled.mi4x8k2a`,
    );
    expect(() => parseJobPayload('render-pdf', { invoiceId, version: 'r1:authorized' })).toThrow();
  });

  it('validates payloads', () => {
    expect(parseJobPayload('issue', { invoiceId })).toEqual({ invoiceId });
    expect(() => parseJobPayload('issue', { invoiceId: 'nope' })).toThrow();
    expect(() => parseJobPayload('issue', {})).toThrow();
  });

  it('reads overrides from the environment and refuses malformed ones', () => {
    expect(jobOptionsFor('issuance', {})).toMatchObject({ attempts: 6, backoffMs: 1000 });
    expect(jobOptionsFor('issuance', { QUEUE_ISSUANCE_ATTEMPTS: '2', QUEUE_ISSUANCE_BACKOFF_MS: '10' })).toMatchObject({
      attempts: 2,
      backoffMs: 10,
    });
    expect(() => jobOptionsFor('issuance', { QUEUE_ISSUANCE_ATTEMPTS: '0' })).toThrow('QUEUE_ISSUANCE_ATTEMPTS');
    expect(() => jobOptionsFor('issuance', { QUEUE_ISSUANCE_BACKOFF_MS: '1.5' })).toThrow('QUEUE_ISSUANCE_BACKOFF_MS');
  });

  it('prefixes BullMQ keys with REDIS_PREFIX', () => {
    expect(queueKeyPrefix('talao-test:42:')).toBe('talao-test:42:bull');
    expect(queueKeyPrefix(undefined)).toBe('bull');
  });
});
