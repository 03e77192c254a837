// GET /metrics: the Prometheus text of this process (libs/observability metrics.ts). Like the probes it needs no
// credential and spends no allowance; it says how busy the gateway is, never what a company sent. An ingress should
// not route it from the internet (Prometheus scrapes the pod directly).
import { METRICS_CONTENT_TYPE, renderMetrics } from '@talao/observability';
import { sendError } from './error-envelope.js';
import { pathOf, type GatewayRequest, type GatewayResponse, type Next } from './gateway-request.js';

export const METRICS_PATH = '/metrics';

export function serveMetrics(req: GatewayRequest, res: GatewayResponse, next: Next): void {
  if (pathOf(req) !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
  renderMetrics().then(
    (text) => {
      res.statusCode = 200;
      res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
      res.setHeader('Cache-Control', 'no-store');
      res.end(req.method === 'HEAD' ? undefined : text);
    },
    () => sendError(req, res, 503, 'Metrics are unavailable right now'),
  );
}
