// The operators' queue dashboard (bull-board) at /admin/v1/queues: every queue of the platform, its jobs, retries and
// pauses. Behind the admin token like the admin API: `Authorization: Bearer <ADMIN_TOKEN>`, or HTTP Basic with the
// token as the password (any user name) so a browser can open it — a 401 asks the browser for it. Mounted as Express
// middleware before the body parser (bull-board reads its own JSON bodies) and outside Nest's routes, so it is not
// part of the public OpenAPI document.
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { adminTokenDigest, isAdminToken } from '../auth/admin-token.guard.js';
import { ADMIN_PREFIX, requestIdOf, type GatewayRequest, type GatewayResponse, type Next } from '../http/gateway-request.js';

export const QUEUE_DASHBOARD_PATH = `${ADMIN_PREFIX}/queues`;

/** The token of `Authorization: Bearer <token>` or the password of `Authorization: Basic <user:password>`. */
export function presentedToken(header: string | undefined): string | undefined {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
  if (bearer) return bearer;
  const basic = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header ?? '')?.[1];
  if (!basic) return undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : undefined;
}

function requireAdminToken(adminToken: string) {
  const expected = adminTokenDigest(adminToken);
  return (req: GatewayRequest, res: GatewayResponse, next: Next): void => {
    const token = presentedToken(req.headers.authorization);
    if (token && isAdminToken(expected, token)) return next();
    res.statusCode = 401;
    res.setHeader('WWW-Authenticate', 'Basic realm="talao queues", charset="UTF-8"');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    const detail = token
      ? 'Invalid admin token'
      : 'Missing admin token: send Authorization: Bearer <ADMIN_TOKEN> (or Basic, the token as password)';
    res.end(JSON.stringify({ detail, request_id: requestIdOf(req) }));
  };
}

/** The dashboard's Express middlewares (authentication first), to mount at QUEUE_DASHBOARD_PATH. */
export function queueDashboard(queues: readonly Queue[], adminToken: string) {
  const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Talão queues' } },
  });
  return [requireAdminToken(adminToken), serverAdapter.getRouter() as (req: GatewayRequest, res: GatewayResponse, next: Next) => void];
}
