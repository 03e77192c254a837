// Runs the sweeper on an interval; one sweep at a time, errors logged and the next tick tries again.
import { type SweepDeps, sweepStuckInvoices } from '@talao/issuance';
import type { Logger } from '@talao/observability';

export interface SweeperLoop {
  stop(): Promise<void>;
  /** Resolves when the sweep in progress (if any) ends. */
  runNow(): Promise<void>;
}

export function startSweeper(deps: SweepDeps, options: { intervalMs: number; staleAfterMs: number; batchSize: number }, logger: Logger): SweeperLoop {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= sweepStuckInvoices(deps, options)
      .then((report) => {
        if (report.redriven.length > 0) logger.info({ examined: report.examined, redriven: report.redriven.length, alreadyQueued: report.alreadyQueued }, 'sweep done');
      })
      .catch((error: unknown) => logger.error({ error: (error as Error).message }, 'sweep failed'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
    runNow: () => tick(),
  };
}
