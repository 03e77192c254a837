import { ConfigError, loadConfig } from './load-config.js';
import {
  authorizersConfig,
  redisConfig,
  statementBatchingConfig,
  technicalResponsibleConfig,
  tracingConfig,
  workerConfig,
} from './fragments.js';

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

/** A complete technical responsible: its values, and the variables that carry them. */
const responsible = { cnpj: '11222333000181', contact: 'Equipe Talao', email: 'suporte@talao.example', phone: '1133334444' };
const technicalResponsibleEnv = {
  TECHNICAL_RESPONSIBLE_CNPJ: responsible.cnpj,
  TECHNICAL_RESPONSIBLE_CONTACT: responsible.contact,
  TECHNICAL_RESPONSIBLE_EMAIL: responsible.email,
  TECHNICAL_RESPONSIBLE_PHONE: responsible.phone,
};

describe('config fragments', () => {
  it('gives every app the same defaults for the variables they share', () => {
    const { redis, authorizers } = loadConfig({ redis: redisConfig, authorizers: authorizersConfig }, {});
    expect(redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'talao:' });
    expect(authorizers).toEqual({ baseUrls: {}, connectTimeoutMs: 5_000, readTimeoutMs: 30_000 });
  });

  it('reads the authorizer overrides (the simulator) and refuses a base URL that is not https', () => {
    const { authorizers } = loadConfig(
      { authorizers: authorizersConfig },
      {
        AUTHORIZER_BASE_URL_HOMOLOGATION: 'https://127.0.0.1:8443',
        AUTHORIZER_CA_BUNDLE_FILE: '/ca.pem',
        AUTHORIZER_READ_TIMEOUT_MS: '3000',
      },
    );
    expect(authorizers).toEqual({
      baseUrls: { homologation: 'https://127.0.0.1:8443' },
      caBundleFile: '/ca.pem',
      connectTimeoutMs: 5_000,
      readTimeoutMs: 3_000,
    });
    expect(problemsOf(() => loadConfig({ authorizers: authorizersConfig }, { AUTHORIZER_BASE_URL_PRODUCTION: 'http://sefaz' }))).toEqual([
      'AUTHORIZER_BASE_URL_PRODUCTION must be a URL starting with https://',
    ]);
  });

  it('requires the technical responsible, with no placeholder, and checks its shape', () => {
    const technicalResponsible = (env: Record<string, string>) =>
      loadConfig({ technicalResponsible: technicalResponsibleConfig }, env).technicalResponsible;
    expect(technicalResponsible(technicalResponsibleEnv)).toEqual(responsible);
    const missing = problemsOf(() => technicalResponsible({}));
    expect(missing.map((p) => p.split(' ').slice(0, 3).join(' '))).toEqual([
      'TECHNICAL_RESPONSIBLE_CNPJ is required',
      'TECHNICAL_RESPONSIBLE_CONTACT is required',
      'TECHNICAL_RESPONSIBLE_EMAIL is required',
      'TECHNICAL_RESPONSIBLE_PHONE is required',
    ]);
    expect(problemsOf(() => technicalResponsible({ ...technicalResponsibleEnv, TECHNICAL_RESPONSIBLE_CNPJ: '123' }))).toEqual([
      'TECHNICAL_RESPONSIBLE_CNPJ must be a CNPJ (14 characters)',
    ]);
  });

  it("names a worker's variables after the app and applies its defaults", () => {
    expect(loadConfig({ worker: workerConfig('ISSUER', { concurrency: 8, healthPort: 3100 }) }, {}).worker).toEqual({
      concurrency: 8,
      jobLockMs: 30_000,
      stalledCheckMs: 30_000,
      health: { port: 3100, host: '127.0.0.1' },
    });
    expect(
      loadConfig(
        { worker: workerConfig('ISSUER', { concurrency: 8, healthPort: 3100 }) },
        { ISSUER_CONCURRENCY: '32', ISSUER_HEALTH_PORT: '0' },
      ).worker,
    ).toMatchObject({ concurrency: 32, health: { port: 0 } });
    expect(
      problemsOf(() =>
        loadConfig(
          { worker: workerConfig('ISSUER', { concurrency: 8, healthPort: 3100 }) },
          { ISSUER_CONCURRENCY: 'many', ISSUER_JOB_LOCK_MS: '10' },
        ),
      ),
    ).toEqual(['ISSUER_CONCURRENCY must be a positive integer', 'ISSUER_JOB_LOCK_MS must be an integer ≥ 1000']);
  });

  it('turns statement batching off at a maximum of 0 or 1', () => {
    const batching = (env: Record<string, string>) => loadConfig({ batching: statementBatchingConfig('ISSUER_DB_BATCH') }, env).batching;
    expect(batching({})).toEqual({ maxBatch: 32, maxInFlight: 2 });
    expect(batching({ ISSUER_DB_BATCH_MAX: '1' })).toBeUndefined();
    expect(problemsOf(() => batching({ ISSUER_DB_BATCH_IN_FLIGHT: '0' }))).toEqual(['ISSUER_DB_BATCH_IN_FLIGHT must be at least 1']);
  });

  it('turns tracing on only when an OTLP endpoint is given and nothing switches it off', () => {
    const tracing = (env: Record<string, string>) => loadConfig({ tracing: tracingConfig }, env).tracing;
    expect(tracing({})).toEqual({ enabled: false, protocol: 'http/protobuf' });
    const endpoint = 'http://collector:4318';
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'issuer-a' })).toEqual({
      enabled: true,
      endpoint,
      protocol: 'http/protobuf',
      serviceName: 'issuer-a',
    });
    expect(
      tracing({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
    ).toMatchObject({
      enabled: true,
      protocol: 'http/json',
    });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(false);
    expect(problemsOf(() => tracing({ OTEL_EXPORTER_OTLP_PROTOCOL: 'udp', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }))).toHaveLength(
      2,
    );
  });

  it('collects the problems of every fragment into one error', () => {
    const problems = problemsOf(() =>
      loadConfig(
        { redis: redisConfig, worker: workerConfig('PDF', { concurrency: 2, healthPort: 3200 }) },
        {
          REDIS_URL: 'http://redis',
          PDF_CONCURRENCY: '0',
        },
      ),
    );
    expect(problems).toEqual(['REDIS_URL must be a URL starting with redis:// or rediss://', 'PDF_CONCURRENCY must be a positive integer']);
  });
});
