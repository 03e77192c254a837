// Idempotency-Key records in PostgreSQL (the truth, shared by every gateway replica). The row is the lock: it is
// inserted with INSERT … ON CONFLICT DO NOTHING, so of two concurrent first calls exactly one wins, whichever
// replica they reach. The row then carries the invoice the call created (a progress marker) and finally the response.
import { createHash } from 'node:crypto';
import type { Environment, Prisma, PrismaClient } from '@talao/persistence';

export interface IdempotencyScope {
  companyId: string;
  environment: 'homologation' | 'production';
  key: string;
}

export interface StoredResponse {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export type BeginResult =
  /** This call holds the key; `resumeInvoiceId` is set when it took over a dead call that had created an invoice. */
  | { kind: 'acquired'; resumeInvoiceId?: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

export interface IdempotencyTimings {
  /** Records answer replays for this long (24 h). */
  retentionMs: number;
  /** A call holding the key longer than this is presumed dead (crashed replica) and the key can be taken over. */
  lockTtlMs: number;
}

const PENDING = 'pending_invoice_id';
/** idempotency_records.operation is varchar(60). */
export const MAX_OPERATION_LENGTH = 60;

/**
 * The operation as stored: informative only (the request hash binds the key to the call), but it names the target,
 * and a target from the path can be longer than the column: `cancel_invoice:` + a 50-character NFS-e key is 65
 * characters, and a hostile path longer still. Those are cut and end in a digest of the whole, so two operations
 * never share a stored name and no client input can make the insert fail (a 500 found by the chaos suite).
 */
export function storedOperation(operation: string): string {
  if (operation.length <= MAX_OPERATION_LENGTH) return operation;
  return `${operation.slice(0, MAX_OPERATION_LENGTH - 33)}#${createHash('sha256').update(operation).digest('hex').slice(0, 32)}`;
}

export class IdempotencyStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly timings: IdempotencyTimings,
  ) {}

  private where(scope: IdempotencyScope) {
    return { companyId_environment_key: { companyId: scope.companyId, environment: scope.environment as Environment, key: scope.key } };
  }

  async begin(scope: IdempotencyScope, operation: string, requestHash: string, now = new Date()): Promise<BeginResult> {
    for (let round = 0; round < 5; round++) {
      const inserted = await this.prisma.idempotencyRecord.createMany({
        data: [
          {
            companyId: scope.companyId,
            environment: scope.environment,
            key: scope.key,
            operation: storedOperation(operation),
            requestHash,
            createdAt: now,
            expiresAt: new Date(now.getTime() + this.timings.retentionMs),
          },
        ],
        skipDuplicates: true,
      });
      if (inserted.count === 1) return { kind: 'acquired' };
      const record = await this.prisma.idempotencyRecord.findUnique({ where: this.where(scope) });
      if (!record) continue; // expired and deleted in between: try to insert again
      if (record.expiresAt.getTime() <= now.getTime()) {
        await this.prisma.idempotencyRecord.deleteMany({
          where: { ...this.where(scope).companyId_environment_key, expiresAt: { lte: now } },
        });
        continue;
      }
      if (record.requestHash !== requestHash) return { kind: 'mismatch' };
      if (record.completedAt && record.responseStatus !== null) {
        return { kind: 'replay', response: record.responseBody as unknown as StoredResponse };
      }
      if (now.getTime() - record.createdAt.getTime() < this.timings.lockTtlMs) return { kind: 'in_flight' };
      // The holder is presumed dead. Take the lock over with a compare-and-set on its start time, so two callers
      // doing the same at once cannot both win.
      const taken = await this.prisma.idempotencyRecord.updateMany({
        where: { ...this.where(scope).companyId_environment_key, createdAt: record.createdAt, completedAt: null },
        data: { createdAt: now },
      });
      if (taken.count !== 1) continue;
      const pending = (record.responseBody as Record<string, unknown> | null)?.[PENDING];
      return typeof pending === 'string' ? { kind: 'acquired', resumeInvoiceId: pending } : { kind: 'acquired' };
    }
    // Only under pathological churn on one key; the caller answers 409 and the client retries.
    return { kind: 'in_flight' };
  }

  /** Records that the call created this invoice, so a takeover after a crash answers for it instead of issuing again. */
  async markInvoice(scope: IdempotencyScope, invoiceId: string): Promise<void> {
    await this.prisma.idempotencyRecord.updateMany({
      where: { ...this.where(scope).companyId_environment_key, completedAt: null },
      data: { responseBody: { [PENDING]: invoiceId } },
    });
  }

  async complete(scope: IdempotencyScope, response: StoredResponse, now = new Date()): Promise<void> {
    await this.prisma.idempotencyRecord.updateMany({
      where: this.where(scope).companyId_environment_key,
      data: { responseStatus: response.status, responseBody: response as unknown as Prisma.InputJsonObject, completedAt: now },
    });
  }

  /** Frees the key after an unexpected failure before anything was created: the client may simply retry. */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.prisma.idempotencyRecord.deleteMany({ where: { ...this.where(scope).companyId_environment_key, completedAt: null } });
  }

  /** Housekeeping: drops expired records (called periodically by one replica at a time is not required; it is idempotent). */
  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now } } })).count;
  }
}
