import { formatLogLine } from './log-format.mjs';

describe('formatLogLine', () => {
  it("renders the apps' request lines (label level, req.path, res.status) on one readable line", () => {
    const request = { req: { method: 'POST', path: '/api/v1/invoices' }, res: { status: 422 }, responseTime: 5 };
    const line = JSON.stringify({ level: 'warn', ...request, msg: 'request completed' });
    expect(formatLogLine(line)).toBe('WARN  request completed POST /api/v1/invoices 422 5ms');
  });

  it("renders pino-http's default request line on one readable line", () => {
    const request = { req: { method: 'GET', url: '/readyz' }, res: { statusCode: 200 }, responseTime: 3, msg: 'request completed' };
    const line = JSON.stringify({ level: 'info', time: '2026-11-22T00:00:00.000Z', name: 'gateway', ...request });
    expect(formatLogLine(line)).toBe('INFO  request completed GET /readyz 200 3ms');
  });

  it('understands numeric levels and shows the stack of errors', () => {
    const text = formatLogLine(JSON.stringify({ level: 50, msg: 'boom', err: { message: 'db down', stack: 'Error: db down\n    at x' } }));
    expect(text).toBe('ERROR boom — db down\nError: db down\n    at x');
  });

  it('leaves anything else as it is', () => {
    for (const line of ['plain text', '{ not json', '{"no":"level"}', '[1,2]']) expect(formatLogLine(line)).toBe(line);
  });
});
