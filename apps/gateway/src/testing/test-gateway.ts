// In-process gateway for integration tests: real PostgreSQL (DATABASE_URL of the run) and Redis (REDIS_URL, with
// a key prefix of its own per gateway so test files never share rate-limit counters), an ephemeral port, fetch.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { loadGatewayConfig, type GatewayConfig } from '@talao/config';
import { createLogger } from '@talao/observability';
import { createGatewayApp, type GatewayApp } from '../gateway-app.js';

export interface TestGateway extends GatewayApp {
  readonly baseUrl: string;
  readonly config: GatewayConfig;
  request(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** Admin API call with the gateway's ADMIN_TOKEN. */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  /** Collects the gateway's JSON log lines (at LOG_LEVEL, default warn when collecting). */
  readonly logLines?: Record<string, unknown>[];
  /** Listen on this port (default: any free one); for a configuration that names the gateway's own URL (OAuth issuer). */
  readonly port?: number;
}

export async function startTestGateway(
  env: Record<string, string | undefined> = {},
  options: TestGatewayOptions = {},
): Promise<TestGateway> {
  const config = loadGatewayConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'talao-test:'}${randomBytes(4).toString('hex')}:`,
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    CERTIFICATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? (options.logLines ? 'warn' : 'silent'),
    ...env,
  });
  const lines = options.logLines;
  const destination = lines
    ? new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      })
    : undefined;
  const logger = createLogger({ name: 'gateway-test', level: config.logLevel, ...(destination && { destination }) });
  const gateway = await createGatewayApp(config, logger);
  await gateway.app.listen(options.port ?? 0, '127.0.0.1');
  const address = gateway.app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const request: TestGateway['request'] = (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined && { body }) });
  };

  return {
    ...gateway,
    baseUrl,
    config,
    request,
    admin: (method, path, body) => request(method, path, { token: config.adminToken, body }),
    close: async () => {
      // fetch keeps connections alive; the test is over, so do not wait for them to idle out.
      gateway.app.getHttpServer().closeAllConnections();
      await gateway.app.close();
    },
  };
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A CNPJ-shaped tax id no other test uses (the run's database is shared by every test file). */
export function uniqueCnpj(): string {
  const bytes = randomBytes(14);
  const base = Array.from(bytes.subarray(0, 12), (b) => ALPHANUMERIC[b % 36]).join('');
  return `${base}${String(bytes[12]! % 10)}${String(bytes[13]! % 10)}`;
}

/** A valid company for POST /admin/v1/companies. */
export function companyRequest(taxId = uniqueCnpj()) {
  return {
    tax_id: taxId,
    legal_name: 'Empresa de Teste Ltda',
    trade_name: 'Teste',
    tax_regime: 'simples_nacional',
    state_registration: '110042490114',
    address: {
      street: 'Rua Augusta',
      number: '100',
      neighborhood: 'Consolação',
      city: 'São Paulo',
      city_code: '3550308',
      state: 'SP',
      zip_code: '01305000',
    },
    default_nfse_service_code: '010101',
    approximate_taxes: { federal: '6.00', state: '0', municipal: '2.00' },
    plan: { name: 'pro', production_quota: 1000, overage_price: '0.2500' },
  };
}

/** Creates a company and an API key through the admin API; returns both ids and the key. */
export async function createCompanyWithKey(
  gateway: TestGateway,
  key: { environment?: 'homologation' | 'production'; context?: 'sdk' | 'api'; name?: string } = {},
): Promise<{ companyId: string; taxId: string; apiKeyId: string; key: string }> {
  const taxId = uniqueCnpj();
  const created = await gateway.admin('POST', '/admin/v1/companies', companyRequest(taxId));
  if (created.status !== 201) throw new Error(`create company: ${created.status} ${await created.text()}`);
  const company = (await created.json()) as { id: string };
  const apiKey = await gateway.admin('POST', `/admin/v1/companies/${company.id}/api-keys`, {
    name: key.name ?? 'test key',
    environment: key.environment ?? 'homologation',
    context: key.context ?? 'api',
  });
  if (apiKey.status !== 201) throw new Error(`create api key: ${apiKey.status} ${await apiKey.text()}`);
  const body = (await apiKey.json()) as { id: string; key: string };
  return { companyId: company.id, taxId, apiKeyId: body.id, key: body.key };
}

/** A port free right now (the OS picks it), for a gateway whose configuration must name its own URL. */
export async function freeLocalPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
