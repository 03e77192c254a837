// Registration as deployed (WEBHOOK_ALLOW_LOOPBACK unset): http and loopback refused, private and link-local ranges
// refused, names that do not resolve refused, the secret's limits, the endpoint limit, and the secret sealed at rest.
import { jest } from '@jest/globals';
import { MAX_WEBHOOK_ENDPOINTS } from '@talao/persistence';
import { createCompanyWithKey, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

jest.setTimeout(60_000);

const SECRET = 'whsec_int_0123456789abcdef';
// A public address literal: registration does not resolve it and nothing is sent to it here.
const PUBLIC_URL = 'https://8.8.8.8/talao';

describe('POST /api/v1/webhooks as deployed', () => {
  let gateway: TestGateway;
  let key: string;
  let companyId: string;

  beforeAll(async () => {
    // More registrations than a minute's default allowance (30), to reach the endpoint limit.
    gateway = await startTestGateway({ RATE_LIMIT_CREATE_WEBHOOK: '1000' });
    ({ key, companyId } = await createCompanyWithKey(gateway));
  });
  afterAll(async () => {
    await gateway.close();
  });

  const register = (body: Record<string, unknown>) =>
    gateway.request('POST', '/api/v1/webhooks', { token: key, body: { url: PUBLIC_URL, secret: SECRET, events: [], ...body } });

  it.each([
    ['http', 'http://8.8.8.8/talao', /https/],
    ['http to localhost', 'http://localhost:4000/webhooks', /https/],
    ['loopback over https', 'https://127.0.0.1/hook', /non-public address/],
    ['localhost over https', 'https://localhost/hook', /non-public/],
    ['IPv6 loopback', 'https://[::1]/hook', /non-public address/],
    ['a private range', 'https://192.168.1.10/hook', /non-public address/],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/hook', /non-public address/],
    ['credentials in the URL', 'https://user:pass@8.8.8.8/hook', /user name or password/],
    ['a name that does not resolve', 'https://does-not-exist.invalid/hook', /does not resolve/],
  ])('refuses %s (422)', async (_, url, detail) => {
    const answer = await register({ url });
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { detail: string }).detail).toMatch(detail);
  });

  it('refuses unknown fields, unknown events (named) and secrets out of bounds', async () => {
    for (const [body, detail] of [
      [{ extra: 1 }, /unknown field "extra"/],
      [{ events: ['invoice.authorized', 'invoice.paid'] }, /unknown event "invoice\.paid"/],
      [{ events: 'invoice.authorized' }, /events must be an array/],
      [{ secret: 's'.repeat(257) }, /16 to 256/],
      [{ secret: 'with spaces in the secret' }, /printable ASCII without spaces/],
    ] as const) {
      const answer = await register(body);
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(detail);
    }
  });

  it('registers a public https URL, seals the secret, and stops at the endpoint limit (409)', async () => {
    const answer = await register({ events: ['invoice.rejected', 'invoice.authorized', 'invoice.authorized'] });
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as { id: string; events: string[] };
    expect(body.events).toEqual(['invoice.authorized', 'invoice.rejected']);
    const row = await gateway.resources.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: body.id } });
    expect(Buffer.from(row.secretEncrypted).includes(Buffer.from(SECRET))).toBe(false);
    expect(row.companyId).toBe(companyId);
    for (let n = 1; n < MAX_WEBHOOK_ENDPOINTS; n++) expect((await register({})).status).toBe(201);
    const over = await register({});
    expect(over.status).toBe(409);
  });
});
