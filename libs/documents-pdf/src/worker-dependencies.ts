// What the pdf-renderer's handlers use, built from its config: the database (invoices to read, PDFs to store) and
// one warm DocumentRenderer (Chromium and its page pool), started at boot. The Chromium path is checked before
// anything starts, so a machine without Chromium fails at boot with the one line that says how to install it.
import type { Logger } from '@talao/observability';
import { createDatabase } from '@talao/persistence';
import { type EnqueueTarget, jobOutcomeChannel, JobOutcomeSubscription, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { DocumentRenderer, type PdfEngineOptions, resolveChromiumPath } from '@talao/rendering';
import { Redis } from 'ioredis';
import { renderOnAuthorization } from './render-on-authorization.js';
import type { RenderPdfDependencies } from './render-pdf-job.js';

export interface PdfWorkerSettings {
  database: { url: string };
  certificates: { encryptionKey: string };
  redis: { url: string; prefix: string };
  worker: { concurrency: number };
  renderer: PdfEngineOptions & { onAuthorization: boolean };
}

export interface PdfWorkerDependencies {
  readonly render: RenderPdfDependencies;
  readonly checks: Readonly<Record<string, () => Promise<unknown>>>;
  close(): Promise<void>;
}

export function createPdfWorkerDependencies(
  settings: PdfWorkerSettings,
  context: { logger: Logger; queue: EnqueueTarget },
): PdfWorkerDependencies {
  const executablePath = resolveChromiumPath(settings.renderer.executablePath);
  const database = createDatabase({
    url: settings.database.url,
    concurrency: settings.worker.concurrency,
    certificateEncryptionKey: settings.certificates.encryptionKey,
    onConnectionError: (error) => context.logger.warn({ error: error.message }, 'postgres pool connection error'),
  });
  const { onAuthorization, ...engine } = settings.renderer;
  const started = DocumentRenderer.start({ ...engine, executablePath });
  started.then(
    (renderer) => context.logger.info({ browserPid: renderer.browserPid, pages: settings.renderer.pages ?? 4 }, 'chromium ready'),
    (error: Error) => context.logger.error({ error: error.message }, 'chromium did not start'),
  );
  // A subscribed connection can do nothing else: its own, with an offline queue so the subscription is sent once
  // connected (ioredis re-subscribes after a reconnect).
  const outcomesRedis = onAuthorization ? new Redis(settings.redis.url, { maxRetriesPerRequest: null }) : undefined;
  if (outcomesRedis) {
    outcomesRedis.on('error', (error: Error) => context.logger.debug({ error: error.message }, 'issue outcomes connection error'));
    const channel = jobOutcomeChannel(queueKeyPrefix(settings.redis.prefix), QUEUE_NAMES.issuance);
    const issueOutcomes = new JobOutcomeSubscription(outcomesRedis, channel);
    renderOnAuthorization({ issueOutcomes, invoices: database.invoices, queue: context.queue, logger: context.logger });
  }
  return {
    render: { pdfs: database.pdfs, renderer: () => started },
    checks: {
      database: () => database.ping(),
      // Ready once Chromium and every page of the pool are open.
      chromium: async () => (await started).browserPid !== undefined,
    },
    async close() {
      outcomesRedis?.disconnect();
      await (await started.catch(() => undefined))?.close();
      await database.close();
    },
  };
}
