// What every platform of real processes (e2e/issuance, e2e/received) sets up alike around the apps it starts: the
// app table's context (tools/start/app-table.mjs: each app's environment comes from there, as under npm start) on the
// run's PostgreSQL and a Redis key prefix of its own, the database handles to create companies and keys as an
// operator would, and the removal of every Redis key under the prefix.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SAMPLE_TECHNICAL_RESPONSIBLE } from '@talao/fiscal-model/testing';
import { ApiKeysRepository, CertificatesRepository, CertificateVault, createPrismaClient } from '@talao/persistence';
import type { RunningSimulator } from '../authorizers/support/simulator-process.js';
import { freePort } from '../issuance/support/app-processes.js';

/**
 * The context of a platform named `name` whose apps talk to `sim` (trusting its CA through a file in a work folder of
 * the platform's own): every app of the table has its ports, whether it is started or not.
 */
export async function platformContext(name: string, sim: RunningSimulator) {
  const workDir = mkdtempSync(join(tmpdir(), 'talao-e2e-'));
  const caFile = join(workDir, 'sim-ca.pem');
  writeFileSync(caFile, sim.caCertificatePem);
  const certificateKey = randomBytes(32).toString('base64');
  const context = {
    databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisPrefix: `${process.env.REDIS_PREFIX ?? 'talao-e2e:'}${name}-${randomUUID().slice(0, 8)}:`,
    logLevel: process.env.E2E_LOG_LEVEL ?? 'warn',
    secrets: { adminToken: randomBytes(24).toString('hex'), certificateEncryptionKey: certificateKey },
    ports: {
      gateway: { http: await freePort() },
      issuer: { health: await freePort() },
      'webhook-dispatcher': { health: await freePort() },
      'pdf-renderer': { health: await freePort() },
      canceller: { health: await freePort() },
      'received-sync': { health: await freePort() },
      mcp: { http: await freePort() },
    },
    authorizers: { homologation: sim.baseUrl, production: sim.baseUrl, caBundleFile: caFile },
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
  };
  return { context, removeWorkDir: () => rmSync(workDir, { recursive: true, force: true }) };
}

/**
 * The platform's database as an operator reaches it: companies, their certificates (sealed with the platform's key)
 * and API keys. `close` deletes the companies `created` was told of (with what hangs off them) and disconnects.
 */
export function platformDatabase(databaseUrl: string, certificateKey: string) {
  const prisma = createPrismaClient(databaseUrl);
  const companyIds: string[] = [];
  return {
    prisma,
    certificates: new CertificatesRepository(prisma, new CertificateVault(certificateKey)),
    apiKeys: new ApiKeysRepository(prisma),
    created(companyId: string) {
      companyIds.push(companyId);
    },
    async close() {
      if (companyIds.length > 0) await prisma.company.deleteMany({ where: { id: { in: companyIds } } });
      await prisma.$disconnect();
    },
  };
}

/**
 * Deletes every Redis key under `prefix` (the platform's namespace: queues, schedulers, deduplication keys) and
 * resolves with how many there were.
 */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined); // an unreachable Redis fails the SCAN below, with its own message
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
