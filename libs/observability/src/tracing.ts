// Tracing (OpenTelemetry), started by the `instrument` entry before the app's first import, and only when an OTLP
// endpoint is configured: off, none of the SDK is imported and the queues carry no telemetry, so a process without
// tracing pays nothing for it. On: the SDK with the http, undici, ioredis, pg and express instrumentations (ESM modules
// hooked by import-in-the-middle), the OTLP exporter the standard variables choose, and BullMQ's telemetry so a job
// carries the W3C trace context of whoever enqueued it.
import type { Attributes, Tracer } from '@opentelemetry/api';
import type * as OtelApi from '@opentelemetry/api';
import type { Telemetry } from 'bullmq';

/** Instrumentations loaded unless OTEL_NODE_ENABLED_INSTRUMENTATIONS says otherwise (names as the SDK spells them). */
export const DEFAULT_INSTRUMENTATIONS = 'http,undici,ioredis,pg,express';

/**
 * Fewer spans per request where they say little: one span per Express middleware layer (the gateway has a dozen per
 * request) and per pg pool checkout add export volume, not insight; Redis and SQL outside any trace (BullMQ's polling,
 * periodic tasks) are not traced at all.
 */
const INSTRUMENTATION_SETTINGS = {
  '@opentelemetry/instrumentation-express': { ignoreLayersType: ['middleware' as never] },
  '@opentelemetry/instrumentation-pg': { requireParentSpan: true, ignoreConnectSpans: true },
  '@opentelemetry/instrumentation-ioredis': { requireParentSpan: true },
};

export interface TracingSettings {
  enabled: boolean;
  serviceName?: string;
}

// On globalThis rather than in a module variable: the entry and the app may reach this file through two URLs.
const QUEUE_TELEMETRY = Symbol.for('talao.observability.queue-telemetry');
const TRACER = Symbol.for('talao.observability.tracer');
const API = Symbol.for('talao.observability.api');
type TracingGlobal = typeof globalThis & { [QUEUE_TELEMETRY]?: Telemetry; [TRACER]?: Tracer; [API]?: typeof OtelApi };

/**
 * The W3C traceparent of the active span (tracing on), to store with work that another process picks up later
 * without a queue in between (an outbox event); undefined when tracing is off or no span is active.
 */
export function currentTraceParent(): string | undefined {
  const api = (globalThis as TracingGlobal)[API];
  if (!api) return undefined;
  const carrier: Record<string, string> = {};
  api.propagation.inject(api.context.active(), carrier);
  return carrier['traceparent'];
}

/** Runs `fn` as part of the trace `traceParent` names (from currentTraceParent); bare when tracing is off or none. */
export function withTraceParent<T>(traceParent: string | null | undefined, fn: () => T): T {
  const api = (globalThis as TracingGlobal)[API];
  if (!api || !traceParent) return fn();
  return api.context.with(api.propagation.extract(api.ROOT_CONTEXT, { traceparent: traceParent }), fn);
}

/** OpenTelemetry's status code ERROR (api's SpanStatusCode, not imported: the api stays unloaded when tracing is off). */
const STATUS_ERROR = 2;

/**
 * Runs `fn` inside a span named `name` (a child of the active one) when tracing is on; calls it bare otherwise.
 * `describe` adds attributes from the result once known (an outcome, a status code).
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, describe?: (result: T) => Attributes): Promise<T> {
  const tracer = (globalThis as TracingGlobal)[TRACER];
  if (!tracer) return fn();
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      const result = await fn();
      if (describe) span.setAttributes(describe(result));
      return result;
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: STATUS_ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The `telemetry` option of every BullMQ Queue and Worker of the platform: undefined (BullMQ's default, nothing
 * done) unless tracing was started in this process.
 */
export function queueTelemetry(): Telemetry | undefined {
  return (globalThis as TracingGlobal)[QUEUE_TELEMETRY];
}

/** The app's name from its entry point (`apps/<name>/dist/main.js`), the service name when OTEL_SERVICE_NAME is unset. */
export function serviceNameOf(entry: string | undefined): string {
  const match = /apps[\\/]([^\\/]+)[\\/]/.exec(entry ?? '');
  return match?.[1] ?? 'talao';
}

export async function startTracing(settings: TracingSettings): Promise<void> {
  if (!settings.enabled) return;
  const { register } = await import('node:module');
  // Every ESM module imported from here on is wrapped, so the instrumentations can patch the app's imports.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  // Metrics are Prometheus' (/metrics, prom-client) and logs are pino's on stdout: the SDK exports traces only unless
  // an operator asks for more with the standard variables.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  process.env.OTEL_NODE_ENABLED_INSTRUMENTATIONS ??= DEFAULT_INSTRUMENTATIONS;
  const [{ NodeSDK }, { getNodeAutoInstrumentations }, { BullMQOtel }, api] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/auto-instrumentations-node'),
    import('bullmq-otel'),
    import('@opentelemetry/api'),
  ]);
  const serviceName = settings.serviceName ?? serviceNameOf(process.argv[1]);
  const sdk = new NodeSDK({ serviceName, instrumentations: [getNodeAutoInstrumentations(INSTRUMENTATION_SETTINGS)] });
  sdk.start();
  const tracing = globalThis as TracingGlobal;
  tracing[QUEUE_TELEMETRY] = new BullMQOtel({ tracerName: serviceName, version: '1' }) as unknown as Telemetry;
  tracing[TRACER] = api.trace.getTracer('talao');
  tracing[API] = api;
  // The apps end with process.exit after their own shutdown; the spans still in the batch go out first.
  const flush = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', flush);
  process.once('SIGINT', flush);
}
