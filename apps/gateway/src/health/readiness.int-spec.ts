import { jest } from '@jest/globals';
import { createServer } from 'node:net';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';

// Boots, RSA key generation and PKCS#12 writing are slow on a loaded 2-core machine.
jest.setTimeout(30_000);

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
    // The first check opens the pool's first PostgreSQL connection: on a loaded CI machine that alone can pass the
    // 1 s default, and this case is about the answer, not the deadline (the unreachable cases below test that).
    const gateway = await startTestGateway({ READINESS_TIMEOUT_MS: '15000' });
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

  describe('with PostgreSQL unreachable', () => {
    let gateway: TestGateway;
    const logLines: Record<string, unknown>[] = [];

    beforeAll(async () => {
      gateway = await startTestGateway({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${await closedPort()}/talao` }, { logLines });
    });
    afterAll(async () => {
      await gateway.close();
    });

    it('answers /readyz 503 naming postgres', async () => {
      const ready = await gateway.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { detail: { checks: unknown } }).detail.checks).toEqual({ postgres: 'unavailable', redis: 'ok' });
    });

    it('answers a generic 500 with nothing internal, and logs the error with the request id', async () => {
      const token = `talao_hml_${'0'.repeat(16)}_${'A'.repeat(43)}`;
      const response = await gateway.request('GET', '/api/v1/me', { token, headers: { 'x-request-id': 'db-down-1' } });
      expect(response.status).toBe(500);
      expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ detail: 'Internal server error', request_id: 'db-down-1' });
      expect(text).not.toMatch(/ECONNREFUSED|prisma|5432|at /i);
      const failure = logLines.find((line) => line.request_id === 'db-down-1' && line.level === 'error' && line.err);
      expect(failure).toBeDefined();
      expect(JSON.stringify(logLines)).not.toContain(token);
    });
  });
});
