// The pdf-renderer's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import { pdfRendererConfig, workerAppConfigLoader } from '@talao/config';

// One job per page of the pool: more would only queue inside the renderer.
export const loadPdfRendererConfig = workerAppConfigLoader(
  'PDF_RENDERER',
  { concurrency: 4, healthPort: 3200 },
  { renderer: pdfRendererConfig },
);
