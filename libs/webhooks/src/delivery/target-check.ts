// The registration-time check of a webhook URL (POST /webhooks): https, no credentials in the URL, and a host that
// resolves to global unicast addresses only. It answers a sentence for the 422 `detail`. It is the early, friendly
// refusal; the guarantee is the connect-time guard (guarded-connector.ts), since a name can change after this check.
import { isIP } from 'node:net';
import { addressRefusal, isLoopbackHostname, type TargetPolicy } from './address-policy.js';
import { resolvedRefusal, systemResolver, type HostResolver } from './guarded-connector.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type TargetCheck = { ok: true; url: string } | { ok: false; detail: string };

export interface TargetCheckOptions {
  policy: TargetPolicy;
  resolver?: HostResolver;
}

const refuse = (detail: string): TargetCheck => ({ ok: false, detail });

/** The URL as it will be stored (WHATWG-normalised, e.g. `https://2130706433/` becomes `https://127.0.0.1/` and is refused). */
export async function checkWebhookTarget(url: unknown, { policy, resolver = systemResolver }: TargetCheckOptions): Promise<TargetCheck> {
  if (typeof url !== 'string' || url.length === 0) return refuse('url must be an https URL');
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return refuse(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('url must be an absolute https URL');
  }
  const loopbackHttp = parsed.protocol === 'http:' && policy.allowLoopback && isLoopbackHostname(parsed.hostname);
  if (parsed.protocol !== 'https:' && !loopbackHttp) return refuse('url must use https');
  if (parsed.username || parsed.password) return refuse('url must not carry a user name or password');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    return refusal ? refuse(`url must not point to a non-public address: ${refusal}`) : { ok: true, url: parsed.href };
  }
  let addresses;
  try {
    addresses = await resolver(host);
  } catch {
    return refuse(`url host ${host} does not resolve`);
  }
  if (addresses.length === 0) return refuse(`url host ${host} does not resolve`);
  const refusal = resolvedRefusal(host, addresses, policy);
  if (refusal) return refuse(`url must not point to a non-public address: ${refusal}`);
  if (loopbackHttp && addresses.some(({ address }) => addressRefusal(address, { allowLoopback: false }) === undefined)) {
    return refuse('url must use https (http:// is accepted to a loopback address only)');
  }
  return { ok: true, url: parsed.href };
}
