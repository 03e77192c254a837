// A worker's periodic work (a sweeper re-driving stuck work from the database): one run at a time, errors logged and
// the next tick tries again; stopping waits for the run in progress.
import type { Logger } from '@talao/observability';

export interface PeriodicTask {
  /** Names the task in the logs ("sweep" → "sweep failed"). */
  readonly name: string;
  readonly intervalMs: number;
  run(): Promise<unknown>;
}

export interface RunningTask {
  /** No more runs; resolves when the run in progress (if any) has ended. */
  stop(): Promise<void>;
}

export function startPeriodicTask(task: PeriodicTask, logger: Logger): RunningTask {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= task
      .run()
      .then(
        () => undefined,
        (error: unknown) => logger.error({ error: (error as Error).message }, `${task.name} failed`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, task.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
