// The pdf-renderer: the `pdf` queue's worker (DANFE / DANFSe on a warm Chromium). Everything else — config check,
// health port, shutdown, exit codes — is the worker runtime's.
import { createPdfWorkerDependencies } from '@talao/documents-pdf';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { runWorkerApp } from '@talao/worker-runtime';
import { loadPdfRendererConfig } from './config.js';
import { PdfHandlers } from './pdf-handlers.js';

runWorkerApp({
  name: 'pdf-renderer',
  queue: QUEUE_NAMES.pdf,
  loadConfig: () => loadPdfRendererConfig(),
  dependencies: createPdfWorkerDependencies,
  handlers: [PdfHandlers],
});
