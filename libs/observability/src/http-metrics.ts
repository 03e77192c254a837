// Request rate, errors and duration by route template: one counter and one histogram sample per response, taken when
// the response finishes. The route is the matched template (`/api/v1/invoices/:access_key`), never the raw path, so
// the label set stays bounded whatever clients send.
import { httpRequestDuration, httpRequests, secondsSince } from './metrics.js';

/** Records one answered request. */
export function observeHttpRequest(method: string, route: string, status: number, startNs: bigint): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpRequestDuration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, secondsSince(startNs));
}

interface ExpressLikeRequest {
  method: string;
  baseUrl?: string;
  route?: { path?: unknown };
}
interface ExpressLikeResponse {
  statusCode: number;
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

/** For a node:http server: records the response to `method` under `route` (a fixed name, never the raw path) when it ends. */
export function observeResponse(method: string | undefined, res: ExpressLikeResponse, route: string): void {
  const startNs = process.hrtime.bigint();
  let done = false;
  const record = () => {
    if (done) return;
    done = true;
    observeHttpRequest(method ?? 'GET', route, res.statusCode, startNs);
  };
  res.once('finish', record);
  res.once('close', record);
}

/** Express middleware; requests no route matched count under `unmatched`. */
export function httpMetricsMiddleware() {
  return (req: ExpressLikeRequest, res: ExpressLikeResponse, next: () => void): void => {
    const startNs = process.hrtime.bigint();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const template = typeof req.route?.path === 'string' ? `${req.baseUrl ?? ''}${req.route.path}` : 'unmatched';
      observeHttpRequest(req.method, template, res.statusCode, startNs);
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}
