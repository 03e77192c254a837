// The demo company a fresh `npm start` prints a key for. Everything that changes data goes through the admin API,
// exactly as an operator would; the launcher reads the database only to find what it created on an earlier run
// (the company by tax id, the demo keys by name), because the admin API does not list them.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/** A fixed, valid CNPJ (check digits 00) and a valid São Paulo state registration; nobody real. */
export const DEMO_COMPANY = {
  tax_id: '45812736000100',
  legal_name: 'Talao Demonstracao Ltda',
  trade_name: 'Talao Demo',
  tax_regime: 'simples_nacional',
  state_registration: '110042490114',
  municipal_registration: '12345678',
  address: {
    street: 'Avenida Paulista',
    number: '1000',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    zip_code: '01310100',
    city_code: '3550308', // São Paulo (IBGE): the code decides
  },
  phone: '1130000000',
  email: 'demo@talao.example',
  default_nfse_service_code: '010101', // cTribNac 01.01.01: análise e desenvolvimento de sistemas
  // Lei 12.741/2012 (an illustration, not the IBPT table): the DPS carries it, as the national environment requires
  // from an ME/EPP in the Simples Nacional.
  approximate_taxes: { federal: '6.00', state: '0.00', municipal: '2.00' },
};
export const DEMO_KEY_NAME = 'npm start demo key';
const DAY_MS = 86_400_000;
const CERTIFICATE_VALIDITY_MS = 365 * DAY_MS;
const CERTIFICATE_RENEW_BEFORE_MS = 30 * DAY_MS;

/**
 * Makes sure the demo company exists with a current test certificate, revokes the previous demo keys and creates a
 * fresh homologation key of context `api`.
 * @param {{ adminUrl: string, adminToken: string, databaseUrl: string, dataDir: string, ca?: any,
 *   log: ReturnType<typeof import('./log.mjs').createLogger> }} options
 * @returns {Promise<{ companyId: string, apiKey: string, certificate: 'uploaded' | 'kept' | 'skipped' }>}
 */
export async function prepareDemoCompany({ adminUrl, adminToken, databaseUrl, dataDir, ca, log }) {
  const admin = adminClient(adminUrl, adminToken);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    let companyId = await findCompanyId(db, DEMO_COMPANY.tax_id);
    const created = !companyId;
    if (!companyId) {
      const body = await admin.request('POST', '/admin/v1/companies', DEMO_COMPANY, [201]);
      companyId = body.id;
      if (!companyId) throw new Error(`POST /admin/v1/companies answered without a company id: ${JSON.stringify(body)}`);
      log.info(`demo company created (${DEMO_COMPANY.legal_name}, CNPJ ${DEMO_COMPANY.tax_id})`);
    }

    // A demo company registered by an earlier version lacks what NFS-e now needs: set it again (idempotent).
    if (!created) {
      await admin.request('PATCH', `/admin/v1/companies/${companyId}`, { approximate_taxes: DEMO_COMPANY.approximate_taxes }, [200]);
    }

    const certificate = ca ? await ensureCertificate({ admin, companyId, created, dataDir, ca, log }) : 'skipped';

    for (const keyId of await findActiveKeyIds(db, companyId, DEMO_KEY_NAME)) {
      await admin.request('DELETE', `/admin/v1/api-keys/${keyId}`, undefined, [204, 404]);
    }
    const key = await admin.request(
      'POST',
      `/admin/v1/companies/${companyId}/api-keys`,
      { name: DEMO_KEY_NAME, environment: 'homologation', context: 'api' },
      [201],
    );
    const apiKey = key.key;
    if (typeof apiKey !== 'string') throw new Error('POST …/api-keys answered without the key value');
    return { companyId, apiKey, certificate };
  } finally {
    await db.end().catch(() => {});
  }
}

async function findCompanyId(db, taxId) {
  const result = await db.query('SELECT id FROM companies WHERE tax_id = $1', [taxId]);
  return result.rows[0]?.id;
}

async function findActiveKeyIds(db, companyId, name) {
  const result = await db.query('SELECT id FROM api_keys WHERE company_id = $1 AND name = $2 AND revoked_at IS NULL', [companyId, name]);
  return result.rows.map((row) => row.id);
}

/**
 * Issues the demo A1 certificate from the local test CA and uploads it. The PKCS#12 is kept in .data/demo-company/
 * and re-uploaded only when the company is new, the certificate was re-issued (near expiry, or issued by a CA that
 * is no longer the local one), or it was last uploaded to another company id (a different database).
 */
async function ensureCertificate({ admin, companyId, created, dataDir, ca, log }) {
  const dir = path.join(dataDir, 'demo-company');
  const stateFile = path.join(dir, 'certificate.json');
  const state = existsSync(stateFile) ? JSON.parse(await readFile(stateFile, 'utf8')) : {};
  const stillGood =
    state.pkcs12Base64 &&
    state.caCertificatePem === ca.caCertificatePem &&
    Date.parse(state.notAfter) - Date.now() > CERTIFICATE_RENEW_BEFORE_MS;
  if (!stillGood) {
    const password = randomBytes(18).toString('base64url');
    const notAfter = new Date(Date.now() + CERTIFICATE_VALIDITY_MS);
    const pkcs12 = ca.issueA1({ taxId: DEMO_COMPANY.tax_id, legalName: DEMO_COMPANY.legal_name, password, notAfter });
    Object.assign(state, {
      pkcs12Base64: pkcs12.toString('base64'),
      password,
      caCertificatePem: ca.caCertificatePem,
      notAfter: notAfter.toISOString(),
      uploadedTo: undefined,
    });
  }
  if (!created && stillGood && state.uploadedTo === companyId) return 'kept';
  await admin.request(
    'PUT',
    `/admin/v1/companies/${companyId}/certificate`,
    { pkcs12_base64: state.pkcs12Base64, password: state.password },
    [200, 201, 204],
  );
  state.uploadedTo = companyId;
  await mkdir(dir, { recursive: true });
  await writeFile(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  log.info('demo company holds a test A1 certificate from the local test CA');
  return 'uploaded';
}

function adminClient(baseUrl, token) {
  return {
    async request(method, route, body, expected) {
      const response = await fetch(new URL(route, baseUrl), {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      if (!expected.includes(response.status)) {
        throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 500)}`);
      }
      return text.length > 0 ? JSON.parse(text) : {};
    },
  };
}
