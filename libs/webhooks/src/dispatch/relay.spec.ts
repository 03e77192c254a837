import type { RelayEndpoint, RelayEvent } from '@talao/persistence';
import { planDeliveries } from './relay.js';

const COMPANY = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const INVOICE = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  documentType: 'nfe' as const,
  accessKey: '3'.repeat(44),
  dpsId: null,
  amount: '1500.00',
};

const event = (type: string, changes: Partial<RelayEvent> = {}): RelayEvent => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  companyId: COMPANY,
  environment: 'homologation',
  type,
  payload: {},
  createdAt: new Date('2026-11-25T12:00:00.000Z'),
  invoice: INVOICE,
  traceParent: null,
  ...changes,
});

const endpoint = (id: string, events: string[], changes: Partial<RelayEndpoint> = {}): RelayEndpoint => ({
  id,
  companyId: COMPANY,
  environment: 'homologation',
  events,
  ...changes,
});

describe('planDeliveries', () => {
  it('fans an event out to every subscribed endpoint of its company and environment, with one body', () => {
    const planned = planDeliveries(
      [event('invoice.cancelled')],
      [
        endpoint('all', []),
        endpoint('cancel', ['invoice.cancelled']),
        endpoint('auth-only', ['invoice.authorized']),
        endpoint('production', [], { environment: 'production' }),
        endpoint('other-company', [], { companyId: OTHER }),
      ],
    );
    expect(planned.map((p) => p.endpointId)).toEqual(['all', 'cancel']);
    expect(new Set(planned.map((p) => p.body)).size).toBe(1);
    expect(JSON.parse(planned[0]!.body)).toEqual({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      event: 'invoice.cancelled',
      created_at: '2026-11-25T12:00:00.000Z',
      data: { invoice_id: INVOICE.id, document_type: 'nfe', access_key: INVOICE.accessKey, status: 'cancelled', amount: 1500 },
    });
    expect(planned[0]!.body).toContain('"amount":1500.00}');
  });

  it('delivers none of the internal events, nor an event about no invoice', () => {
    const endpoints = [endpoint('all', [])];
    expect(planDeliveries([event('invoice.failed'), event('invoice.contingency_entered')], endpoints)).toEqual([]);
    expect(planDeliveries([event('invoice.authorized', { invoice: null })], endpoints)).toEqual([]);
  });

  it('takes the access key the event reported, else the invoice’s key, else its DPS id; a rejected attempt has none', () => {
    const endpoints = [endpoint('all', [])];
    const data = (e: RelayEvent) => (JSON.parse(planDeliveries([e], endpoints)[0]!.body) as { data: Record<string, unknown> }).data;
    expect(data(event('invoice.authorized', { payload: { access_key: '5'.repeat(50) } }))['access_key']).toBe('5'.repeat(50));
    expect(data(event('invoice.authorized'))['access_key']).toBe(INVOICE.accessKey);
    expect(
      data(event('invoice.cancelled', { invoice: { ...INVOICE, documentType: 'nfse', accessKey: null, dpsId: 'DPS123' } }))['access_key'],
    ).toBe('DPS123');
    const rejected = data(event('invoice.rejected', { payload: { access_key: INVOICE.accessKey } }));
    expect(rejected).not.toHaveProperty('access_key');
    expect(rejected).toMatchObject({ invoice_id: INVOICE.id, status: 'rejected' });
  });
});
