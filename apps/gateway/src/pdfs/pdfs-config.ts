// Settings of GET /invoices/{access_key}/pdf, read from the environment like every feature's:
//   PDF_WAIT_MS         how long a request for a PDF not rendered yet waits for the pdf-renderer (10000; 0 = never)
//   PDF_RETRY_AFTER_S   the Retry-After of the 503 answered when the window passed without a PDF (2)
import { type Environment, integer, loadConfig } from '@talao/config';
import { z } from 'zod';

const pdfsConfig = z
  .object({ PDF_WAIT_MS: integer(10_000, 0), PDF_RETRY_AFTER_S: integer(2, 1) })
  .transform((env) => ({ waitMs: env.PDF_WAIT_MS, retryAfterSeconds: env.PDF_RETRY_AFTER_S }));

export function loadPdfsConfig(env: Environment = process.env) {
  return loadConfig({ pdfs: pdfsConfig }, env).pdfs;
}

export type PdfsConfig = ReturnType<typeof loadPdfsConfig>;
