import { assertHandlersCover } from './handler-check.js';

describe('job handler startup check', () => {
  it('accepts exactly one handler per job of the queue', () => {
    expect(() => assertHandlersCover('issuance', ['issue'])).not.toThrow();
  });

  it('refuses a missing handler', () => {
    expect(() => assertHandlersCover('issuance', [])).toThrow('queue "issuance": job "issue" has no handler');
  });

  it('refuses two handlers for one job', () => {
    expect(() => assertHandlersCover('issuance', ['issue', 'issue'])).toThrow('job "issue" has 2 handlers');
  });

  it('refuses a handler of a job of another queue, and of an unknown job, naming every problem', () => {
    expect(() => assertHandlersCover('pdf', ['issue'])).toThrow('job "issue" belongs to queue "issuance", not "pdf"');
    expect(() => assertHandlersCover('issuance', ['issue', 'render'])).toThrow('handler for unknown job "render"');
    expect(() => assertHandlersCover('issuance', ['render', 'render'])).toThrow(
      'queue "issuance": handler for unknown job "render"; job "render" has 2 handlers; job "issue" has no handler',
    );
  });
});
