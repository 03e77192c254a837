import { assertHandlersCover } from './handler-registry.js';
import { jobOptionsFor } from './job-options.js';
import { jobIdOf, parseJobPayload } from './job-payloads.js';
import { queueKeyPrefix } from './queue-names.js';

const handle = async () => undefined;
const invoiceId = '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f';

describe('job handler startup check', () => {
  it('accepts exactly one handler per job of the queue', () => {
    expect(() => assertHandlersCover('issuance', [{ name: 'issue', handle }])).not.toThrow();
  });

  it('refuses a missing handler', () => {
    expect(() => assertHandlersCover('issuance', [])).toThrow('job "issue" has no handler');
  });

  it('refuses two handlers for one job', () => {
    expect(() => assertHandlersCover('issuance', [{ name: 'issue', handle }, { name: 'issue', handle }])).toThrow('job "issue" has 2 handlers');
  });

  it('refuses a handler registered on another queue', () => {
    expect(() => assertHandlersCover('pdf', [{ name: 'issue', handle }])).toThrow('belongs to queue "issuance"');
  });
});

describe('job contracts', () => {
  it('uses the invoice id as jobId', () => {
    expect(jobIdOf({ name: 'issue', data: { invoiceId } })).toBe(invoiceId);
  });

  it('validates payloads', () => {
    expect(parseJobPayload('issue', { invoiceId })).toEqual({ invoiceId });
    expect(() => parseJobPayload('issue', { invoiceId: 'nope' })).toThrow();
    expect(() => parseJobPayload('issue', { invoiceId, traceContext: { traceparent: 'bad' } })).toThrow();
  });

  it('reads overrides from the environment and refuses malformed ones', () => {
    expect(jobOptionsFor('issuance', {})).toMatchObject({ attempts: 6, backoffMs: 1000 });
    expect(jobOptionsFor('issuance', { QUEUE_ISSUANCE_ATTEMPTS: '2', QUEUE_ISSUANCE_BACKOFF_MS: '10' })).toMatchObject({ attempts: 2, backoffMs: 10 });
    expect(() => jobOptionsFor('issuance', { QUEUE_ISSUANCE_ATTEMPTS: '0' })).toThrow('QUEUE_ISSUANCE_ATTEMPTS');
    expect(() => jobOptionsFor('issuance', { QUEUE_ISSUANCE_BACKOFF_MS: '1.5' })).toThrow('QUEUE_ISSUANCE_BACKOFF_MS');
  });

  it('prefixes BullMQ keys with REDIS_PREFIX', () => {
    expect(queueKeyPrefix('talao-test:42:')).toBe('talao-test:42:bull');
    expect(queueKeyPrefix(undefined)).toBe('bull');
  });
});
