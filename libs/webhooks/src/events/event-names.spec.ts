import { WEBHOOK_EVENTS, endpointReceives, isWebhookEventName, parseEventSelection } from './event-names.js';

describe('webhook event names', () => {
  it('are the four events of SPEC.md', () => {
    expect(WEBHOOK_EVENTS).toEqual(['invoice.authorized', 'invoice.rejected', 'invoice.cancelled', 'invoice.corrected']);
    expect(isWebhookEventName('invoice.failed')).toBe(false);
    expect(isWebhookEventName('invoice.corrected')).toBe(true);
  });

  it('accepts [] as every event, and a subscription to it receives each one', () => {
    expect(parseEventSelection([])).toEqual({ ok: true, events: [] });
    for (const event of WEBHOOK_EVENTS) expect(endpointReceives([], event)).toBe(true);
  });

  it('keeps known names once, in a stable order', () => {
    expect(parseEventSelection(['invoice.rejected', 'invoice.authorized', 'invoice.rejected'])).toEqual({
      ok: true,
      events: ['invoice.authorized', 'invoice.rejected'],
    });
    expect(endpointReceives(['invoice.rejected'], 'invoice.rejected')).toBe(true);
    expect(endpointReceives(['invoice.rejected'], 'invoice.authorized')).toBe(false);
  });

  it('refuses an unknown name, naming it and the known ones', () => {
    const result = parseEventSelection(['invoice.authorized', 'invoice.paid']);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.detail).toBe(
        'unknown event "invoice.paid"; the events are invoice.authorized, invoice.rejected, invoice.cancelled, invoice.corrected',
      );
  });

  it('refuses what is not an array of strings, and bounds a hostile name in the message', () => {
    expect(parseEventSelection('invoice.authorized')).toEqual({
      ok: false,
      detail: 'events must be an array of event names ([] for all events)',
    });
    expect(parseEventSelection(null).ok).toBe(false);
    expect(parseEventSelection([42])).toEqual({ ok: false, detail: 'events must contain event names (strings)' });
    const result = parseEventSelection(['x'.repeat(100_000)]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail.length).toBeLessThan(250);
  });
});
