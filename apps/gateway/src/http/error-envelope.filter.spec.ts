import type { ArgumentsHost } from '@nestjs/common';
import type { Logger } from '@talao/observability';
import { Prisma } from '@talao/persistence';
import { ErrorEnvelopeFilter } from './error-envelope.filter.js';

/** The filter's view of one exchange: what it wrote back. */
function exchange() {
  const headers: Record<string, string> = {};
  const written = { status: 0, body: '' };
  const res = {
    headersSent: false,
    set statusCode(value: number) {
      written.status = value;
    },
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    end: (body: string) => (written.body = body),
  };
  const req = { id: 'req-1', headers: {} };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  return { host, headers, written };
}

const logged: Array<{ level: string; message: string }> = [];
const logger = {
  warn: (_: unknown, message: string) => logged.push({ level: 'warn', message }),
  error: (_: unknown, message: string) => logged.push({ level: 'error', message }),
} as unknown as Logger;

describe('ErrorEnvelopeFilter', () => {
  beforeEach(() => (logged.length = 0));

  it.each([
    ['P2028', 'Transaction API error: Unable to start a transaction in the given time.'],
    ['P2024', 'Timed out fetching a new connection from the connection pool.'],
  ])('answers an exhausted database pool (Prisma %s) with 503 and Retry-After, never 500', (code, message) => {
    const { host, headers, written } = exchange();
    new ErrorEnvelopeFilter(logger).catch(new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: '7' }), host);
    expect(written.status).toBe(503);
    expect(headers['retry-after']).toBe('1');
    expect(JSON.parse(written.body)).toEqual({
      detail: 'The service is busy; send the request again after Retry-After seconds',
      request_id: 'req-1',
    });
    expect(logged).toEqual([{ level: 'warn', message: 'database busy: answered 503' }]);
  });

  it('answers node-postgres’s pool timeout the same way', () => {
    const { host, written } = exchange();
    new ErrorEnvelopeFilter(logger).catch(new Error('timeout exceeded when trying to connect'), host);
    expect(written.status).toBe(503);
  });

  it('keeps any other unexpected error a logged 500 with the generic sentence', () => {
    const { host, headers, written } = exchange();
    new ErrorEnvelopeFilter(logger).catch(
      new Prisma.PrismaClientKnownRequestError('Unique constraint failed', { code: 'P2002', clientVersion: '7' }),
      host,
    );
    expect(written.status).toBe(500);
    expect(headers['retry-after']).toBeUndefined();
    expect(JSON.parse(written.body).detail).toBe('Internal server error');
    expect(logged.map((l) => l.level)).toEqual(['error']);
  });
});
