// The pdf-renderer's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import { type Environment, loadConfig, pdfRendererConfig, workerAppFragments } from '@talao/config';

export function loadPdfRendererConfig(env: Environment = process.env) {
  return loadConfig(
    {
      // One job per page of the pool: more would only queue inside the renderer.
      ...workerAppFragments('PDF_RENDERER', { concurrency: 4, healthPort: 3200 }),
      renderer: pdfRendererConfig,
    },
    env,
  );
}
