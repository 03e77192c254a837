// apps/issuer as a real process: configuration refused at boot, health endpoints, jobs consumed from the shared
// queue, the sweeper re-driving an invoice whose job never reached Redis, graceful SIGTERM, and a SIGKILL mid-way
// recovered by the next process without a second document.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { createInvoice } from '@talao/issuance';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { type Harness, startHarness } from './support/issuer-harness.js';
import { buildIssuer, runIssuerOnce, startIssuer } from './support/issuer-process.js';

jest.setTimeout(90_000);

let h: Harness;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  await buildIssuer();
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'talao-issuer-'));
  writeFileSync(join(dir, 'ca.pem'), h.sim.caCertificatePem);
  env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: h.redisPrefix,
    CERTIFICATE_ENCRYPTION_KEY: h.certificateKey,
    LOG_LEVEL: 'info',
    ISSUER_HEALTH_PORT: '0',
    ISSUER_CONCURRENCY: '4',
    // A killed worker's jobs come back after ~2 s instead of 30 s.
    ISSUER_JOB_LOCK_MS: '2000',
    ISSUER_STALLED_CHECK_MS: '1000',
    SWEEPER_INTERVAL_MS: '250',
    SWEEPER_STALE_AFTER_MS: '1000',
    AUTHORIZER_BASE_URL_HOMOLOGATION: h.sim.baseUrl,
    AUTHORIZER_CA_BUNDLE_FILE: join(dir, 'ca.pem'),
    TECHNICAL_RESPONSIBLE_CNPJ: '11222333000181',
    TECHNICAL_RESPONSIBLE_CONTACT: 'Equipe Talao',
    TECHNICAL_RESPONSIBLE_EMAIL: 'suporte@talao.example',
    TECHNICAL_RESPONSIBLE_PHONE: '1133334444',
  };
});

afterAll(async () => {
  await h?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('refuses a bad configuration at boot, naming every bad variable (exit 78)', () => {
  const { DATABASE_URL: _db, ...withoutDatabase } = env;
  const result = runIssuerOnce({ ...withoutDatabase, ISSUER_CONCURRENCY: 'many', TECHNICAL_RESPONSIBLE_EMAIL: 'nope' });
  expect(result.status).toBe(78);
  expect(result.stderr).toContain('DATABASE_URL is required');
  expect(result.stderr).toContain('ISSUER_CONCURRENCY');
  expect(result.stderr).toContain('TECHNICAL_RESPONSIBLE_EMAIL');
  expect(result.stderr).not.toContain(h.certificateKey);
});

it('refuses to boot without the technical responsible: infRespTec has no default to fall back on', () => {
  const { TECHNICAL_RESPONSIBLE_CNPJ: _cnpj, TECHNICAL_RESPONSIBLE_PHONE: _phone, ...withoutResponsible } = env;
  const result = runIssuerOnce(withoutResponsible);
  expect(result.status).toBe(78);
  expect(result.stderr).toContain('TECHNICAL_RESPONSIBLE_CNPJ');
  expect(result.stderr).toContain('TECHNICAL_RESPONSIBLE_PHONE');
});

it('serves health, issues queued invoices, re-drives a lost one, and stops gracefully on SIGTERM', async () => {
  const issuer = await startIssuer(env);
  try {
    expect((await fetch(`${issuer.healthUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${issuer.healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: true, redis: true, worker: true } });

    const companyId = await h.createCompany();
    const queued = await createInvoice(h.createDeps, { companyId, environment: 'homologation', body: sampleNfeRequest() });
    const lost = await createInvoice(
      { ...h.createDeps, queue: { add: () => Promise.reject(new Error('redis flushed')) } },
      {
        companyId,
        environment: 'homologation',
        body: sampleNfeRequest(),
      },
    );
    expect(lost.enqueued).toBe(false);
    expect((await h.waitForFinal(queued.invoice.id)).status).toBe('issued');
    expect((await h.waitForFinal(lost.invoice.id)).status).toBe('issued');
    expect(issuer.lines.some((line) => line.includes('stuck invoice re-driven') && line.includes(lost.invoice.id))).toBe(true);
  } finally {
    expect(await issuer.stop('SIGTERM')).toBe(0);
  }
  expect(issuer.lines.some((line) => line.includes('issuer stopped'))).toBe(true);
});

it('killed (SIGKILL) while the authorizer holds its answers: the next process finishes every invoice, one document each', async () => {
  const companyId = await h.createCompany();
  // The simulator authorizes and never answers: the kill lands between send and answer.
  await h.sim.control('PUT', '/_control/faults/SP', { hang: true });
  const first = await startIssuer(env);
  const created = await Promise.all(
    Array.from({ length: 4 }, () => createInvoice(h.createDeps, { companyId, environment: 'homologation', body: sampleNfeRequest() })),
  );
  const ids = created.map((c) => c.invoice.id);
  // Wait until the simulator holds every document it authorized without answering (a fixed pause was not enough on a
  // loaded machine: a send still in its TLS handshake was killed before it reached the simulator), then kill it.
  const accessKeys = created.map((c) => c.invoice.accessKey as string);
  const held = async () =>
    (await Promise.all(accessKeys.map((key) => h.sim.control('GET', `/_control/documents/${key}`)))).every((r) => r.status === 200);
  for (let i = 0; i < 400 && !(await held()); i++) await new Promise((r) => setTimeout(r, 50));
  await first.stop('SIGKILL');
  await h.sim.control('DELETE', '/_control/faults');

  const second = await startIssuer(env);
  try {
    for (const id of ids) expect((await h.waitForFinal(id, 40_000)).status).toBe('issued');
  } finally {
    await second.stop();
  }
  for (const id of ids) {
    const invoice = await h.prisma.invoice.findUniqueOrThrow({ where: { id } });
    const held = await h.sim.control('GET', `/_control/documents/${invoice.accessKey}`);
    expect(String(held.json['nProt'])).toBe(invoice.protocol);
    const operations = (await h.prisma.submission.findMany({ where: { invoiceId: id }, orderBy: { attempt: 'asc' } })).map((s) => [
      s.operation,
      s.outcome,
    ]);
    // The attempt cut by the kill (no answer recorded) was reconciled by a consult, and nothing was sent again:
    // no second document, so no 204/539 either.
    expect(operations).toEqual([
      ['NFeAutorizacao4', null],
      ['NFeConsultaProtocolo4', 'accepted'],
    ]);
  }
});
