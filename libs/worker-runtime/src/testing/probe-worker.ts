// A worker app for the runtime's own tests: the issuance queue with handlers whose behaviour each test sets (what
// the `issue` handler answers, how long it takes), and the jobs it saw.
import { Controller, Inject } from '@nestjs/common';
import type { IssueJobResult, JobPayload } from '@talao/queue-contracts';
import { type JobContext, JobHandler } from '../job-handler.js';
import type { PeriodicTask } from '../periodic-task.js';
import type { WorkerAppDefinition, WorkerDependencies, WorkerRuntimeConfig } from '../worker-app.js';
import { WORKER_DEPENDENCIES } from '../worker-module.js';

export interface ProbeDependencies extends WorkerDependencies {
  /** Every call of the `issue` handler: its payload and attempt. */
  readonly seen: Array<{ data: JobPayload<'issue'>; attempt: JobContext['attempt']; jobId: string | undefined }>;
  answer: (data: JobPayload<'issue'>, job: JobContext) => Promise<IssueJobResult>;
  closed: boolean;
}

export function probeDependencies(checks: Record<string, () => Promise<unknown>> = {}): ProbeDependencies {
  const probe: ProbeDependencies = {
    seen: [],
    checks,
    answer: async () => ({ kind: 'skipped', reason: 'probe' }),
    closed: false,
    async close() {
      probe.closed = true;
    },
  };
  return probe;
}

@Controller()
export class ProbeHandlers {
  constructor(@Inject(WORKER_DEPENDENCIES) private readonly probe: ProbeDependencies) {}

  @JobHandler('issue')
  issue(data: JobPayload<'issue'>, job: JobContext): Promise<IssueJobResult> {
    this.probe.seen.push({ data, attempt: job.attempt, jobId: job.job.id });
    return this.probe.answer(data, job);
  }
}

/** A second handler of the same job: the startup check must refuse the pair. */
@Controller()
export class SecondIssueHandler {
  @JobHandler('issue')
  async issue(): Promise<IssueJobResult> {
    return { kind: 'skipped', reason: 'second handler' };
  }
}

export function probeConfig(redisPrefix: string): WorkerRuntimeConfig {
  return {
    redis: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: redisPrefix },
    logging: { level: process.env.TEST_LOG_LEVEL ?? 'silent' },
    worker: { concurrency: 2, jobLockMs: 30_000, stalledCheckMs: 30_000, health: { port: 0, host: '127.0.0.1' } },
  };
}

export function probeWorker(
  redisPrefix: string,
  probe: ProbeDependencies,
  parts: { handlers?: WorkerAppDefinition<WorkerRuntimeConfig, ProbeDependencies>['handlers']; tasks?: PeriodicTask[] } = {},
): WorkerAppDefinition<WorkerRuntimeConfig, ProbeDependencies> {
  return {
    name: 'probe',
    queue: 'issuance',
    loadConfig: () => probeConfig(redisPrefix),
    dependencies: () => probe,
    handlers: parts.handlers ?? [ProbeHandlers],
    periodicTasks: () => parts.tasks ?? [],
  };
}
