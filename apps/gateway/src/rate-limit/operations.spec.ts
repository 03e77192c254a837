import { effectiveLimits, operationFor, UnknownRateLimitError } from './operations.js';

describe('rate-limit operations', () => {
  it('maps routes to operations', () => {
    expect(operationFor('POST', '/invoices')).toBe('create_invoice');
    expect(operationFor('GET', '/invoices')).toBe('list_invoices');
    expect(operationFor('GET', '/invoices/35260112345678000195550010000000011000000019')).toBe('get_invoice');
    expect(operationFor('post', '/invoices/abc/reissue')).toBe('reissue_invoice');
    expect(operationFor('POST', '/invoices/abc/cancel')).toBe('cancel_invoice');
    expect(operationFor('GET', '/me/')).toBe('get_me');
    expect(operationFor('DELETE', '/invoices')).toBe('default');
    expect(operationFor('GET', '/nothing/here')).toBe('default');
  });

  it('has the limits the issue asks for, overridable by name', () => {
    const limits = effectiveLimits({ create_invoice: 5 });
    expect(limits).toMatchObject({ create_invoice: 5, reissue_invoice: 60, get_invoice: 120, cancel_invoice: 120, list_invoices: 600 });
    expect(() => effectiveLimits({ create_invoices: 5 })).toThrow(UnknownRateLimitError);
  });
});
