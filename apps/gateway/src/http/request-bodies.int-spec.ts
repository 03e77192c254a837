// How the gateway reads bodies and request targets: never past the limit, in its own words, for every route.
import { jest } from '@jest/globals';
import { rawRequest } from '../testing/raw-http.js';
import { createCompanyWithKey, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

jest.setTimeout(60_000);

describe('request bodies and targets (real PostgreSQL and Redis)', () => {
  let gateway: TestGateway;
  let port: number;
  let key: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ RATE_LIMIT_UNAUTHENTICATED: '1000', RATE_LIMIT_ADMIN: '1000' });
    port = Number(new URL(gateway.baseUrl).port);
    ({ key } = await createCompanyWithKey(gateway));
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('answers undecodable targets and malformed framing in the envelope, not in the framework’s words', async () => {
    for (const path of ['/api/v1/invoices/%?document_type=nfe', '/admin/v1/companies/%E0%A4%A', '/api/v1/invoices/%00?document_type=nfe']) {
      const response = await gateway.request('GET', path, { token: key, headers: { authorization: `Bearer ${gateway.config.adminToken}` } });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toMatch(/Failed to decode/);
      expect(JSON.parse(text)).toEqual({ detail: expect.stringMatching(/^The request target is not valid/), request_id: expect.any(String) });
      expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    }
    const badLength = await rawRequest(port, 'POST /api/v1/invoices HTTP/1.1\r\nHost: t\r\nContent-Length: 12abc\r\n\r\n');
    expect(badLength.status).toBe(400);
    expect(JSON.parse(badLength.body)).toEqual({ detail: 'Content-Length must be one decimal number', request_id: expect.any(String) });
    const star = await rawRequest(port, 'OPTIONS * HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n');
    expect(star.status).toBe(400);
    expect(JSON.parse(star.body).detail).toBe('The request target must be a path such as /api/v1/me');
  });
});
