// The probe worker as a process of its own, for the signal test: its environment read through the config fragments
// (REDIS_URL, REDIS_PREFIX, LOG_LEVEL, PROBE_*), `issue` jobs taking PROBE_JOB_MS each.
// Run from the sources: node --import ./bench/support/register-ts.mjs libs/worker-runtime/src/testing/signal-fixture.ts
import { loadConfig, loggingConfig, redisConfig, workerConfig } from '@talao/config';
import { runWorkerApp } from '../worker-app.js';
import { probeDependencies, probeWorker } from './probe-worker.js';

const probe = probeDependencies();
const jobMs = Number(process.env.PROBE_JOB_MS ?? 500);
probe.answer = () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'skipped', reason: 'slow probe' }), jobMs));
runWorkerApp({
  ...probeWorker('', probe),
  loadConfig: () =>
    loadConfig({ redis: redisConfig, logging: loggingConfig, worker: workerConfig('PROBE', { concurrency: 2, healthPort: 0 }) }),
});
