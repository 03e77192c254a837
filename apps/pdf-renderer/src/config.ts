// The pdf-renderer's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import {
  certificatesConfig,
  databaseConfig,
  type Environment,
  loadConfig,
  loggingConfig,
  pdfRendererConfig,
  redisConfig,
  workerConfig,
} from '@talao/config';

export function loadPdfRendererConfig(env: Environment = process.env) {
  return loadConfig(
    {
      database: databaseConfig,
      redis: redisConfig,
      logging: loggingConfig,
      // createDatabase opens the certificate vault with every repository; this worker never reads a certificate.
      certificates: certificatesConfig,
      // One job per page of the pool: more would only queue inside the renderer.
      worker: workerConfig('PDF_RENDERER', { concurrency: 4, healthPort: 3200 }),
      renderer: pdfRendererConfig,
    },
    env,
  );
}
