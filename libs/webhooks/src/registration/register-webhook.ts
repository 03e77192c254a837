// POST /webhooks as a use case: the body checked field by field (every refusal a sentence for the 422 `detail`), the
// URL checked against the SSRF policy (checked again at every connection: guarded-connector.ts), the secret sealed.
import type { NewWebhookEndpoint, WebhookEndpointRecord, WebhookEndpointsRepository, WebhookScope } from '@talao/persistence';
import { parseEventSelection } from '../events/event-names.js';
import type { TargetPolicy } from '../delivery/address-policy.js';
import type { HostResolver } from '../delivery/guarded-connector.js';
import { checkWebhookTarget } from '../delivery/target-check.js';
import { secretRefusal } from './secret.js';

export interface RegisterWebhookDeps {
  endpoints: Pick<WebhookEndpointsRepository, 'register'>;
  policy: TargetPolicy;
  resolver?: HostResolver;
}

export type RegistrationResult = { ok: true; endpoint: WebhookEndpointRecord } | { ok: false; detail: string };

const FIELDS = new Set(['url', 'secret', 'events']);

/** The body's fields, refused in the order a client fixes them: shape, unknown fields, events, secret, then the URL. */
export async function registerWebhook(deps: RegisterWebhookDeps, scope: WebhookScope, body: unknown): Promise<RegistrationResult> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, detail: 'the body must be a JSON object' };
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((name) => !FIELDS.has(name));
  if (unknown.length > 0)
    return { ok: false, detail: `unknown field ${JSON.stringify(unknown[0]!.slice(0, 60))}; the fields are url, secret, events` };
  if (fields['url'] === undefined) return { ok: false, detail: 'url is required' };
  if (fields['secret'] === undefined) return { ok: false, detail: 'secret is required' };
  const events = parseEventSelection(fields['events'] ?? []);
  if (!events.ok) return events;
  const refusal = secretRefusal(fields['secret']);
  if (refusal) return { ok: false, detail: refusal };
  const target = await checkWebhookTarget(fields['url'], { policy: deps.policy, ...(deps.resolver ? { resolver: deps.resolver } : {}) });
  if (!target.ok) return target;
  const endpoint: NewWebhookEndpoint = { ...scope, url: target.url, secret: fields['secret'] as string, events: events.events };
  return { ok: true, endpoint: await deps.endpoints.register(endpoint) };
}
