import { EventEmitter } from 'node:events';
import { httpMetricsMiddleware } from './http-metrics.js';
import { metricsRegistry } from './metrics.js';

/** A response that ends with `status` after the middleware ran. */
function respond(req: { method: string; baseUrl?: string; route?: { path: string } }, status: number) {
  const res = Object.assign(new EventEmitter(), { statusCode: status });
  httpMetricsMiddleware()(req, res, () => undefined);
  res.emit('finish');
  res.emit('close'); // counted once, whichever comes
}

async function count(labels: string): Promise<number> {
  const text = await metricsRegistry.metrics();
  const line = text.split('\n').find((l) => l.startsWith('talao_http_requests_total{') && l.includes(labels));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('HTTP metrics', () => {
  it('counts each response once under its route template, never the raw path', async () => {
    respond({ method: 'GET', route: { path: '/api/v1/invoices/:access_key' } }, 404);
    respond({ method: 'GET', route: { path: '/api/v1/invoices/:access_key' } }, 404);
    respond({ method: 'GET' }, 404);
    expect(await count('method="GET",route="/api/v1/invoices/:access_key",status="404"')).toBe(2);
    expect(await count('route="unmatched"')).toBe(1);
    const text = await metricsRegistry.metrics();
    expect(text).toContain('talao_http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"} 1');
  });
});
