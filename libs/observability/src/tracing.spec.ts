// Tracing off (no instrument entry ran in this process): every helper is a pass-through and nothing of OpenTelemetry
// was loaded. The on side is proven across processes by e2e/observability.
import { createRequire } from 'node:module';
import { currentTraceParent, inSpan, queueTelemetry, serviceNameOf, startTracing, withTraceParent } from './tracing.js';

describe('tracing off', () => {
  it('gives queues no telemetry, stores no traceparent, and runs functions bare', async () => {
    await startTracing({ enabled: false });
    expect(queueTelemetry()).toBeUndefined();
    expect(currentTraceParent()).toBeUndefined();
    expect(withTraceParent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', () => 'ran')).toBe('ran');
    await expect(inSpan('authorizer X', {}, async () => 'answer')).resolves.toBe('answer');
    await expect(inSpan('authorizer X', {}, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    const loaded = Object.keys(createRequire(import.meta.url).cache ?? {});
    expect(loaded.filter((file) => file.includes('@opentelemetry/sdk-node'))).toEqual([]);
  });

  it("names the service after the app's folder", () => {
    expect(serviceNameOf('/app/apps/webhook-dispatcher/dist/main.js')).toBe('webhook-dispatcher');
    expect(serviceNameOf(undefined)).toBe('talao');
  });
});
