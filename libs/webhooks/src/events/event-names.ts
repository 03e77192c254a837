// The events of SPEC.md "Events": the only names an endpoint can subscribe to. A name is part of the public contract
// (integrators switch on it), so it is never renamed; a new event is an additive change.

export const WEBHOOK_EVENTS = ['invoice.authorized', 'invoice.rejected', 'invoice.cancelled', 'invoice.corrected'] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

export function isWebhookEventName(name: unknown): name is WebhookEventName {
  return typeof name === 'string' && KNOWN.has(name);
}

export type EventSelectionResult = { ok: true; events: WebhookEventName[] } | { ok: false; detail: string };

/** The longest name accepted into an error message: a hostile request must not make the detail arbitrarily long. */
const MAX_NAME_SHOWN = 60;

/**
 * The `events` of a registration: an array of known names, duplicates dropped, in the order of WEBHOOK_EVENTS.
 * `[]` stays `[]`, which means every event (now and those added later), not the four known today.
 */
export function parseEventSelection(events: unknown): EventSelectionResult {
  if (!Array.isArray(events)) return { ok: false, detail: 'events must be an array of event names ([] for all events)' };
  for (const name of events) {
    if (typeof name !== 'string') return { ok: false, detail: 'events must contain event names (strings)' };
    if (!KNOWN.has(name)) {
      const shown = name.length > MAX_NAME_SHOWN ? `${name.slice(0, MAX_NAME_SHOWN)}…` : name;
      return { ok: false, detail: `unknown event "${shown}"; the events are ${WEBHOOK_EVENTS.join(', ')}` };
    }
  }
  const chosen = new Set<string>(events);
  return { ok: true, events: WEBHOOK_EVENTS.filter((name) => chosen.has(name)) };
}

/** Fan-out rule 1 of SPEC.md "Events": an endpoint registered with `events: []` receives all events. */
export function endpointReceives(subscribed: readonly string[], event: WebhookEventName): boolean {
  return subscribed.length === 0 || subscribed.includes(event);
}
