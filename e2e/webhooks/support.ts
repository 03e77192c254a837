// What the webhook suites share: registering a local receiver through the API and waiting for deliveries.
import type { Platform, TestCompany } from '../issuance/support/platform.js';

export { waitFor } from '../support/wait-for.js';

export const SECRET = 'whsec_e2e_0123456789abcdef';

export async function register(p: Platform, company: TestCompany, url: string, events: string[] = [], secret = SECRET) {
  return p.api('POST', '/api/v1/webhooks', { key: company.homologationKey, body: { url, secret, events } });
}

export type Delivery = {
  id: string;
  status: string;
  event: string;
  attempt_count: number;
  attempts: Array<{ number: number; started_at: string; result: string; response_status: number | null }>;
};

export async function deliveries(p: Platform, company: TestCompany, query = ''): Promise<Delivery[]> {
  const answer = await p.api('GET', `/api/v1/webhooks/deliveries?page_size=100${query}`, { key: company.homologationKey });
  if (answer.status !== 200) throw new Error(`deliveries: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body['data'] as Delivery[];
}
