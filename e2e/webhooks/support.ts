// What the webhook suites share: the platform with the dispatcher, a company and a local receiver; registering the
// receiver through the API and waiting for deliveries.
import { startWebhookReceiver, type WebhookReceiver } from '@talao/webhooks/testing';
import { type Platform, startPlatform, type TestCompany } from '../issuance/support/platform.js';

export { waitFor } from '../support/wait-for.js';

export const SECRET = 'whsec_e2e_0123456789abcdef';

export interface WebhookPlatform {
  p: Platform;
  company: TestCompany;
  receiver: WebhookReceiver;
}

/**
 * The webhook platform of one spec file: the platform with the dispatcher (`dispatcherEnv` over the app table's), a
 * company and a local receiver, started before its tests and stopped after them. Returns a getter, since they exist
 * only once started.
 */
export function useWebhookPlatform(name: string, dispatcherEnv: Record<string, string>): () => WebhookPlatform {
  const started: Partial<WebhookPlatform> = {};
  beforeAll(async () => {
    started.p = await startPlatform(name, { webhookDispatcherEnv: dispatcherEnv });
    started.company = await started.p.createCompany();
    started.receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await started.receiver?.close();
    await started.p?.stop();
  });
  return () => {
    const { p, company, receiver } = started;
    if (!p || !company || !receiver) throw new Error('the webhook platform is not started yet (use it inside a test or hook)');
    return { p, company, receiver };
  };
}

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
