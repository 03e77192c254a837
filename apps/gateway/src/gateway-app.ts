import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import type { GatewayConfig } from '@talao/config';
import {
  collectProcessMetrics,
  createHttpLogger,
  createLogger,
  httpMetricsMiddleware,
  type Logger,
  NestPinoLogger,
} from '@talao/observability';
import { AppModule } from './app.module.js';
import { authenticateApiKeys } from './auth/api-key-authentication.js';
import { mountAuthorizationServer } from './auth/oauth-mount.js';
import { enforceTokenScopes } from './auth/token-scopes.js';
import { GatewayResources } from './gateway-resources.js';
import { jsonBodies } from './http/body-parsing.js';
import { answerClientErrors } from './http/client-errors.js';
import { deprecationHeaders } from './http/deprecation.js';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter.js';
import { serveMetrics } from './http/metrics-endpoint.js';
import { isApiPath, pathOf, type GatewayRequest, type GatewayResponse, type Next } from './http/gateway-request.js';
import { normalizeRequestTarget, refuseMalformedTargets } from './http/request-target.js';
import { buildOpenApiDocument, DOCS_PATH, serveOpenApi } from './openapi/openapi-document.js';
import { QUEUE_DASHBOARD_PATH, queueDashboard } from './queues/queue-dashboard.js';
import { PUBLIC_API_PATHS, rateLimit } from './rate-limit/rate-limit.middleware.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';

export interface GatewayApp {
  readonly app: NestExpressApplication;
  readonly resources: GatewayResources;
  readonly logger: Logger;
}

const onPaths =
  (test: (path: string) => boolean, middleware: (req: GatewayRequest, res: GatewayResponse, next: Next) => void) =>
  (req: GatewayRequest, res: GatewayResponse, next: Next) => (test(pathOf(req)) ? middleware(req, res, next) : next());

/**
 * Express matches routes case-insensitively unless its router is created with caseSensitive, and the adapter creates
 * that router in its constructor (its first `use`). Routes, the rate-limit table and the authentication prefixes
 * must all read a path the same way: `POST /api/v1/INVOICES` used to issue an NF-e on the default allowance.
 * Layers take the router's flag when they are added, which is after this (tested: rate-limit/limits-cannot-be-walked-around.int-spec.ts).
 */
function caseSensitiveExpressAdapter(): ExpressAdapter {
  const adapter = new ExpressAdapter();
  (adapter.getInstance() as { router: { caseSensitive: boolean } }).router.caseSensitive = true;
  return adapter;
}

/**
 * Builds the gateway (not listening yet). Middleware order is the contract of every response:
 * request id + log line + metrics → one origin-form request target (/metrics answered) → deprecation headers → API
 * key resolution → rate limit (headers on everything that follows) → malformed targets refused → the queue dashboard
 * (admin token; reads its own bodies) → the body (JSON only, bounded in size and depth, read up to the limit and no
 * further) → routes → the error-envelope filter.
 */
/**
 * Node closes an idle keep-alive connection after 5 s, a race with a client (or load balancer, typically 60 s) that
 * reuses it at that moment: the request dies with ECONNRESET, never reaching the gateway. Idle connections are kept
 * 65 s instead, longer than the usual proxy idle timeout, so the proxy or the client closes them first; headers must
 * still arrive within headersTimeout, which Node wants above keepAliveTimeout.
 */
function keepIdleConnectionsLonger(server: { keepAliveTimeout: number; headersTimeout: number }): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

export async function createGatewayApp(
  config: GatewayConfig,
  logger = createLogger({ name: 'gateway', level: config.logLevel }),
): Promise<GatewayApp> {
  const resources = new GatewayResources(config, logger);
  try {
    const rateLimiter = new RateLimiter(resources.redis, config.redisPrefix, config.rateLimitOverrides, logger);
    const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, resources), caseSensitiveExpressAdapter(), {
      bodyParser: false,
      logger: new NestPinoLogger(logger),
    });
    app.disable('x-powered-by');
    // X-Forwarded-For is believed only from the proxies the operator lists (TRUSTED_PROXIES); by default from none,
    // so rotating the header cannot reset a per-IP allowance.
    app.set('trust proxy', config.trustedProxies.length > 0 ? [...config.trustedProxies] : false);
    app.set('query parser', 'simple');
    answerClientErrors(app.getHttpServer());
    keepIdleConnectionsLonger(app.getHttpServer());
    // Node answers a request without Host with a bare 400 before the application sees it; refuseMalformedTargets
    // answers it instead, in the envelope and with the rate-limit headers.
    (app.getHttpServer() as unknown as { requireHostHeader: boolean }).requireHostHeader = false;

    collectProcessMetrics();
    app.use(createHttpLogger(logger));
    app.use(httpMetricsMiddleware());
    app.use(normalizeRequestTarget);
    app.use(serveMetrics);
    const docsLink = (version: string) => `${config.publicBaseUrl ?? ''}/api/${version}/docs`;
    app.use(deprecationHeaders(config.deprecations, docsLink));
    const oauth = config.oauth ? await mountAuthorizationServer(config.oauth, config, resources, logger) : undefined;
    app.use(onPaths((p) => isApiPath(p) && !PUBLIC_API_PATHS.test(p), authenticateApiKeys(resources.apiKeyLookup, oauth?.tokens)));
    app.use(rateLimit(rateLimiter));
    app.use(refuseMalformedTargets);
    app.use(onPaths(isApiPath, enforceTokenScopes));
    // The OAuth endpoints read their own form bodies: before the JSON-only body parser.
    if (oauth) app.use(oauth.handler);
    app.use(QUEUE_DASHBOARD_PATH, ...queueDashboard(resources.queues.all, config.adminToken));
    app.use(jsonBodies({ limitBytes: config.bodyLimitBytes }));
    app.useGlobalFilters(new ErrorEnvelopeFilter(logger));
    // Named signals only: with no list Nest also shuts down on SIGUSR2 (and SIGQUIT, SIGTRAP...), so an operator
    // taking a heap snapshot (node --heapsnapshot-signal=SIGUSR2) stopped the gateway instead.
    app.enableShutdownHooks(['SIGTERM', 'SIGINT', 'SIGHUP']);

    serveOpenApi(app, buildOpenApiDocument(app, config.publicBaseUrl));
    // Give Redis a moment so the first requests are metered; a Redis that is down does not stop the API (fail open).
    await resources.redisReady(2_000).catch(() => logger.warn('redis not reachable at boot; rate limits fail open until it is'));
    logger.debug({ docs: `/${DOCS_PATH}` }, 'OpenAPI document built');
    return { app, resources, logger };
  } catch (error) {
    await resources.close();
    throw error;
  }
}
