import { createServer } from 'node:net';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** A port nothing listens on: bind an ephemeral port, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('health and readiness (real PostgreSQL and Redis)', () => {
  it('is alive and ready when PostgreSQL and Redis answer', async () => {
    const gateway = await startTestGateway();
    try {
      expect(await (await gateway.request('GET', '/healthz')).json()).toEqual({ status: 'ok' });
      const ready = await gateway.request('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
    } finally {
      await gateway.close();
    }
  });

  describe('with Redis unreachable', () => {
    let gateway: TestGateway;

    beforeAll(async () => {
      gateway = await startTestGateway({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, READINESS_TIMEOUT_MS: '500' });
    });
    afterAll(async () => {
      await gateway.close();
    });

    it('answers /readyz 503 naming redis, while /healthz stays 200', async () => {
      const ready = await gateway.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        detail: { message: 'Not ready: redis unavailable', checks: { postgres: 'ok', redis: 'unavailable' } },
        request_id: expect.any(String),
      });
      expect((await gateway.request('GET', '/healthz')).status).toBe(200);
    });

    it('keeps answering the API (rate limits fail open) with the rate-limit headers', async () => {
      const response = await gateway.request('GET', '/api/v1/me');
      expect(response.status).toBe(401);
      expect(response.headers.get('x-ratelimit-limit')).toBe('60');
      const created = await gateway.admin('POST', '/admin/v1/companies', {});
      expect(created.status).toBe(422);
    });
  });
});
