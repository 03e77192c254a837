// POST /received-invoices/sync: one immediate sync of the key's company and environment, queued for received-sync.
// Inside the authority's back-off (after 137 nothing new, or 656 consumo indevido) nothing is queued: 429 with
// Retry-After and the authority's code and reason. A sync already queued or running is not doubled: BullMQ's
// deduplication on the company and environment answers its job id (and the worker's tax id lock backs it up).
import { randomUUID } from 'node:crypto';
import { jobIdOf, parseJobPayload } from '@talao/queue-contracts';
import type { ReceivedResources } from './received-resources.js';

export type SyncAnswer =
  | { status: 202; body: { job_id: string; status: 'queued' } }
  | { status: 429; retryAfterSeconds: number; detail: string }
  | { status: 409; detail: string };

export async function requestSync(
  resources: ReceivedResources,
  scope: { companyId: string; environment: 'homologation' | 'production' },
  now = new Date(),
): Promise<SyncAnswer> {
  // A sync asks each channel (NF-e DistDFe, NFS-e ADN) that is outside its back-off; when every channel is inside
  // one, there is nothing to ask: 429 until the first pause ends, naming each channel's reason.
  const states = await Promise.all(
    (['nfe', 'nfse'] as const).map(async (channel) => ({ channel, ...(await resources.sync.syncState({ ...scope, channel })) })),
  );
  const blocked = states.filter((s) => s.blockedUntil && s.blockedUntil > now);
  if (blocked.length === states.length) {
    const until = Math.min(...blocked.map((s) => s.blockedUntil!.getTime()));
    const reasons = blocked.map(
      (s) =>
        `${s.channel === 'nfe' ? 'NF-e' : 'NFS-e'} until ${s.blockedUntil!.toISOString()}: ${`${s.blockedCode ?? ''} ${s.blockedReason ?? ''}`.trim()}`,
    );
    return {
      status: 429,
      retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)),
      detail: `The authority's distribution asked for a pause (${reasons.join('; ')})`,
    };
  }
  const certificates = await resources.gateway.prisma.certificate.count({ where: { companyId: scope.companyId, replacedAt: null } });
  if (certificates === 0)
    return { status: 409, detail: 'The company has no certificate: received invoices cannot be collected without one' };
  const data = parseJobPayload('sync-received', scope);
  const job = await resources.queue.add('sync-received', data, {
    jobId: randomUUID(),
    deduplication: { id: jobIdOf({ name: 'sync-received', data }) },
  });
  return { status: 202, body: { job_id: String(job.id), status: 'queued' } };
}
