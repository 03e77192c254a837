import { SigningNotImplementedError } from '../errors.js';
import { assertSigningImplemented } from './document-support.js';

describe('assertSigningImplemented', () => {
  it('refuses the fiscal documents the platform does not sign, naming them', () => {
    expect(() => assertSigningImplemented({ document_type: 'nfce' })).toThrow(SigningNotImplementedError);
    expect(() => assertSigningImplemented({ document_type: 'cte', items: [] })).toThrow(/CT-e \(transport, model 57\).*not implemented/);
  });

  it('leaves nfe, nfse and anything else to validation (422)', () => {
    for (const body of [
      { document_type: 'nfe' },
      { document_type: 'nfse' },
      { document_type: 'NFCE' },
      { document_type: 'toString' },
      {},
      null,
      'nfce',
      [],
      { document_type: 5 },
    ]) {
      expect(() => assertSigningImplemented(body)).not.toThrow();
    }
  });
});
