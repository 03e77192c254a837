import { effectiveLimits, OPERATIONS, operationFor, UnknownRateLimitError } from './operations.js';

const KEY = '35260112345678000195550010000000011000000019';
const ID = '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f';

describe('rate-limit operations', () => {
  it('maps every route of SPEC.md’s endpoint table (and the account routes) to its operation', () => {
    const routes: Array<[method: string, path: string, operation: string]> = [
      ['POST', '/invoices', 'create_invoice'],
      ['GET', '/invoices', 'list_invoices'],
      ['GET', `/invoices/${KEY}`, 'get_invoice'],
      ['POST', `/invoices/${KEY}/cancel`, 'cancel_invoice'],
      ['post', `/invoices/${ID}/reissue`, 'reissue_invoice'],
      ['POST', `/invoices/${KEY}/correction`, 'correct_invoice'],
      ['POST', '/invoices/invalidations', 'invalidate_numbering'],
      ['GET', '/invoices/invalidations', 'list_invalidations'],
      ['GET', `/invoices/${KEY}/pdf`, 'get_invoice_pdf'],
      ['GET', `/invoices/${ID}/submissions`, 'list_submissions'],
      ['GET', '/received-invoices', 'list_received_invoices'],
      ['POST', '/received-invoices/sync', 'sync_received_invoices'],
      ['POST', `/received-invoices/${KEY}/manifestation`, 'manifest_received_invoice'],
      ['POST', '/webhooks', 'create_webhook'],
      ['GET', '/webhooks', 'list_webhooks'],
      ['DELETE', `/webhooks/${ID}`, 'delete_webhook'],
      ['GET', '/webhooks/deliveries', 'list_webhook_deliveries'],
      ['POST', `/webhooks/deliveries/${ID}/retry`, 'retry_webhook_delivery'],
      ['GET', '/me/', 'get_me'],
      ['GET', `/companies/${ID}`, 'get_company'],
    ];
    for (const [method, path, operation] of routes) expect([method, path, operationFor(method, path)]).toEqual([method, path, operation]);
    expect(operationFor('DELETE', '/invoices')).toBe('default');
    expect(operationFor('GET', '/nothing/here')).toBe('default');
  });

  it('has SPEC.md’s limits, a documented default for every other operation, each overridable by name', () => {
    const limits = effectiveLimits({ create_invoice: 5 });
    expect(limits).toMatchObject({ create_invoice: 5, reissue_invoice: 60, get_invoice: 120, cancel_invoice: 120, list_invoices: 600 });
    for (const [name, definition] of Object.entries(OPERATIONS)) {
      expect([name, Number.isInteger(definition.perMinute) && definition.perMinute > 0]).toEqual([name, true]);
      expect(definition.description.length).toBeGreaterThan(0);
    }
    expect(() => effectiveLimits({ create_invoices: 5 })).toThrow(UnknownRateLimitError);
  });
});
