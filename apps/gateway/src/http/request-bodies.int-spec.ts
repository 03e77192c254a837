// How the gateway reads bodies and request targets: never past the limit, in its own words, for every route.
import { jest } from '@jest/globals';
import type { Socket } from 'node:net';
import { sampleNfeItem, sampleNfeRequest } from '@talao/fiscal-model/testing';
import { floodRequest, rawRequest } from '../testing/raw-http.js';
import { createCompanyWithKey, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

jest.setTimeout(60_000);

const LIMIT = 1024 * 1024;
/** What the server may read past the limit: one socket read (64 KiB) plus what the headers and framing add. */
const SLACK = 128 * 1024;

describe('request bodies and targets (real PostgreSQL and Redis)', () => {
  let gateway: TestGateway;
  let port: number;
  let key: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway({ RATE_LIMIT_UNAUTHENTICATED: '1000', RATE_LIMIT_ADMIN: '1000' });
    port = Number(new URL(gateway.baseUrl).port);
    gateway.app.getHttpServer().on('connection', (socket: Socket) => sockets.push(socket));
    ({ key } = await createCompanyWithKey(gateway));
  });
  afterAll(async () => {
    await gateway.close();
  });

  const admin = `Authorization: Bearer ${'x'.repeat(10)}\r\n`;

  it('refuses a declared Content-Length over the limit at once, reading almost nothing of the body', async () => {
    const started = Date.now();
    const answer = await floodRequest(
      port,
      `POST /api/v1/invoices HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${2 ** 30}\r\n\r\n`,
      { chunked: false },
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ detail: 'The request body exceeds 1 MiB', request_id: expect.any(String) });
    expect(answer.headers['x-ratelimit-limit']).toBeDefined();
    expect(sockets.at(-1)!.bytesRead).toBeLessThan(SLACK);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops reading a chunked body at the limit and closes the connection', async () => {
    for (const path of ['/admin/v1/companies', '/api/v1/invoices', '/healthz', '/nowhere']) {
      const answer = await floodRequest(
        port,
        `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n${admin}Transfer-Encoding: chunked\r\n\r\n`,
        {
          chunked: true,
        },
      );
      expect({ path, status: answer.status }).toEqual({ path, status: 413 });
      expect(answer.headers.connection).toBe('close');
      expect(sockets.at(-1)!.bytesRead).toBeLessThan(LIMIT + SLACK);
      // The client could write more than the server read (kernel buffers), but not without bound.
      expect(answer.written).toBeLessThan(64 * 1024 * 1024);
    }
  });

  it('refuses compressed bodies, other charsets and invalid UTF-8 in its own words', async () => {
    const post = (headers: Record<string, string>, body: string | Buffer) =>
      fetch(`${gateway.baseUrl}/api/v1/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body,
      });
    const gzip = await post({ 'content-encoding': 'gzip' }, 'not gzip at all');
    expect(gzip.status).toBe(415);
    expect(((await gzip.json()) as { detail: string }).detail).toBe('Content-Encoding is not accepted: send the JSON body uncompressed');
    const latin1 = await post({ 'content-type': 'application/json; charset=iso-8859-1' }, '{}');
    expect(latin1.status).toBe(415);
    const invalid = await post({}, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]));
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { detail: string }).detail).toBe('The request body is not valid UTF-8');
    expect(gzip.headers.get('x-ratelimit-limit')).toBe('60'); // create_invoice's allowance
  });

  it('answers undecodable targets and malformed framing in the envelope, not in the framework’s words', async () => {
    for (const path of ['/api/v1/invoices/%?document_type=nfe', '/admin/v1/companies/%E0%A4%A', '/api/v1/invoices/%00?document_type=nfe']) {
      const response = await gateway.request('GET', path, {
        token: key,
        headers: { authorization: `Bearer ${gateway.config.adminToken}` },
      });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toMatch(/Failed to decode/);
      expect(JSON.parse(text)).toEqual({
        detail: expect.stringMatching(/^The request target is not valid/),
        request_id: expect.any(String),
      });
      expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    }
    const badLength = await rawRequest(port, 'POST /api/v1/invoices HTTP/1.1\r\nHost: t\r\nContent-Length: 12abc\r\n\r\n');
    expect(badLength.status).toBe(400);
    expect(JSON.parse(badLength.body)).toEqual({ detail: 'Content-Length must be one decimal number', request_id: expect.any(String) });
    const noHost = await rawRequest(port, `GET /api/v1/me HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    expect(noHost.status).toBe(400);
    expect(JSON.parse(noHost.body)).toEqual({ detail: 'HTTP/1.1 requests must carry a Host header', request_id: expect.any(String) });
    expect(noHost.headers['x-ratelimit-limit']).toBeDefined();
    const star = await rawRequest(port, 'OPTIONS * HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n');
    expect(star.status).toBe(400);
    expect(JSON.parse(star.body).detail).toBe('The request target must be a path such as /api/v1/me');
  });

  it('reads a JSON number past a double’s digits as written, never as the nearest double', async () => {
    // The price as a bare JSON number of 17 significant digits; the double nearest it is 1234567.1234567892.
    const request = sampleNfeRequest({ items: [sampleNfeItem({ unit_price: 'PRICE', amount: '1.00', quantity: '1' })] });
    const body = JSON.stringify(request).replace('"PRICE"', '1234567.1234567891');
    const response = await gateway.request('POST', '/api/v1/invoices', {
      token: key,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { code: string; message: string; expected: string } };
    expect(detail).toMatchObject({ code: 'ITEM_TOTAL_MISMATCH', expected: '1234567.12' });
    expect(detail.message).toContain('1234567.1234567891');
  });
});
