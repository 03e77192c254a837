import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type {
  DbClient,
  DocumentTypeName,
  EnvironmentName,
  FinalState,
  FinishOptions,
  InvoiceRecord,
  InvoiceStatusName,
  NewOutboxEvent,
} from './issuance-records.js';
import { toInvoiceRecord } from './issuance-records.js';
import { releaseNumber, reserveNumber } from './number-sequences-repository.js';
import { enterContingency } from './enter-contingency.js';
import { finishWithEvent } from './finish-with-event.js';
import { insertProcessingInvoice, selectInvoiceByAccessKey, selectInvoiceById } from './invoice-insert.js';
import { newestFirst, pageWithTotal } from './list-page.js';
import { type IssueSnapshot, selectIssueSnapshot } from './issue-snapshot.js';
import { isUuid } from '../uuid.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';

export interface NewInvoice {
  id?: string;
  companyId: string;
  environment: EnvironmentName;
  documentType: DocumentTypeName;
  series: number;
  /** Given by the request; absent → the next number of the series. */
  number?: number;
  request: Prisma.InputJsonValue;
  /** Decimal string; or given by `describe`. */
  totalAmount?: string;
  reissueOfId?: string;
  /** Defaults to now; the worker uses it as the document's emission time. */
  createdAt?: Date;
  /** Called inside the reservation transaction, with the number decided (to derive the access key, the total, …). */
  describe?: (number: number) => { accessKey?: string; dpsId?: string; totalAmount?: string };
}

export interface InvoiceListQuery {
  companyId: string;
  environment: EnvironmentName;
  documentType?: DocumentTypeName;
  statuses?: readonly InvoiceStatusName[];
  /** 1-based. */
  page: number;
  pageSize: number;
}

/** The attempt was reissued already (invoices.reissue_of_id is unique): `replacementId` is the invoice that did. */
export class AlreadyReissuedError extends Error {
  override readonly name = 'AlreadyReissuedError';
  constructor(
    readonly invoiceId: string,
    readonly replacementId: string,
  ) {
    super(`invoice ${invoiceId} was already reissued as ${replacementId}`);
  }
}

/** The number is already taken in that company/environment/model/series, by an invoice or an invalidated range. */
export class NumberTakenError extends Error {
  override readonly name = 'NumberTakenError';
  constructor(
    readonly series: number,
    readonly number: number,
    readonly invalidated = false,
  ) {
    super(`number ${number} of series ${series} is ${invalidated ? 'invalidated (inutilização)' : 'already used'}`);
  }
}

const MAX_SKIPS = 1_000;

// The status as a literal, not a parameter: the planner can then prove the predicate of the partial index that holds
// only `processing` rows (invoices_processing_updated_at_idx). Prisma's own query casts a text parameter to the enum,
// which the planner cannot match to that predicate.
const STUCK_PROCESSING = `SELECT id::text AS id, company_id::text AS "companyId", updated_at AS "updatedAt"
FROM invoices WHERE status = 'processing' AND updated_at < $1::timestamptz
ORDER BY updated_at LIMIT $2::int`;

export class InvoicesRepository {
  private readonly sql: SqlRunner;
  private readonly numbering: SqlRunner;

  /**
   * `sql`: where the hot statements run (a pg pool as prepared statements; default: through this Prisma client).
   * `numbering`: where number reservations run (a pool with NUMBERING_POOL_OPTIONS; default: `sql`).
   * Either may be a coalescingSqlRunner: then concurrent calls share multi-row statements.
   */
  constructor(
    private readonly prisma: PrismaClient | DbClient,
    sql?: SqlRunner,
    numbering?: SqlRunner,
  ) {
    this.sql = sql ?? prismaSqlRunner(prisma);
    this.numbering = numbering ?? this.sql;
  }

  /**
   * Reserves the number and inserts the invoice as `processing`, each in one autocommit statement (no interactive
   * transaction: the sequence row is locked only while its own statement runs, see NumberSequencesRepository). A
   * number from the request that is taken → NumberTakenError; the automatic path skips numbers someone chose
   * explicitly ahead of the sequence. A failed insertion gives its number back when no later one was reserved
   * meanwhile; otherwise (or after a crash in between) the number stays a gap, as a rejected one does.
   * On coalescing runners, a call's reservation and insert share statements with concurrent calls; each call
   * still gets its own number and row, and a number of a batch's block that cannot be given back stays a gap likewise.
   */
  async createProcessing(input: NewInvoice): Promise<InvoiceRecord> {
    const id = input.id ?? randomUUID();
    const key = { companyId: input.companyId, environment: input.environment, documentType: input.documentType, series: input.series };
    for (let skips = 0; ; skips++) {
      const reserved = input.number === undefined ? await reserveNumber(this.numbering, key) : undefined;
      const number = input.number ?? (reserved as number);
      let row: InvoiceRecord | null;
      try {
        row = await this.insertUnlessNumberUsed(input, id, number);
        // ON CONFLICT also skips a primary-key clash: an id already taken must fail, not burn numbers.
        if (!row && input.id && (await this.prisma.invoice.findUnique({ where: { id: input.id }, select: { id: true } }))) {
          throw new Error(`invoice ${input.id} already exists`);
        }
        // …and a reissue of an attempt that another call reissued first (the unique reissue_of_id): the loser of
        // that race learns which invoice won instead of trying further numbers.
        if (!row && input.reissueOfId) {
          const replacement = await this.findReplacement(input.reissueOfId);
          if (replacement) throw new AlreadyReissuedError(input.reissueOfId, replacement);
        }
      } catch (error) {
        if (reserved !== undefined) await releaseNumber(this.numbering, key, reserved).catch(() => undefined);
        throw error;
      }
      if (row) return row;
      if (input.number !== undefined) throw new NumberTakenError(input.series, number);
      if (skips >= MAX_SKIPS) throw new Error(`series ${input.series}: ${MAX_SKIPS} consecutive numbers already used`);
    }
  }

  /**
   * createProcessing for a company whose production quota is capped: `admit` sees the month's credits (`period`) and
   * the invoices still in flight, and throws to refuse. Counting and inserting hold the company's quota lock (an
   * advisory lock for the length of one transaction, which also holds the reservation and the insert), so concurrent
   * requests are counted one after another: without it a burst of requests each saw the same count and all passed.
   * Only capped production plans pay for it; every other issuance takes createProcessing's batched path.
   */
  async createProcessingWithinQuota(
    input: NewInvoice,
    period: string,
    admit: (usage: { credits: number; inFlight: number }) => void,
  ): Promise<InvoiceRecord> {
    if (!('$transaction' in this.prisma)) throw new Error('createProcessingWithinQuota opens its own transaction');
    const { companyId, environment } = input;
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`production-quota:${companyId}:${environment}`}, 0))`;
        const credits = await tx.usageEntry.aggregate({ where: { companyId, environment, period }, _sum: { credits: true } });
        const inFlight = await tx.invoice.count({ where: { companyId, environment, status: 'processing' } });
        admit({ credits: credits._sum.credits ?? 0, inFlight });
        return new InvoicesRepository(tx, prismaSqlRunner(tx)).createProcessing(input);
      },
      // Requests of one capped company wait for each other here, each for a few milliseconds.
      { maxWait: 10_000, timeout: 20_000 },
    );
  }

  /**
   * Whether an NF-e number lies in a range reported unused (pending or registered): such a number is never issued.
   * The automatic path cannot reach one (filing a range moves the sequence past it); a number a request names can,
   * so the create use case asks first (outside createProcessing, whose explicit numbers go straight to a batched insert).
   */
  async isInvalidated(input: Pick<NewInvoice, 'companyId' | 'environment' | 'series'>, number: number): Promise<boolean> {
    const range = await this.prisma.invalidation.findFirst({
      where: {
        companyId: input.companyId,
        environment: input.environment,
        series: input.series,
        status: { not: 'rejected' },
        numberStart: { lte: number },
        numberEnd: { gte: number },
      },
      select: { id: true },
    });
    return range !== null;
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING: null when the number is already used (chosen explicitly ahead of the sequence,
   * or by a concurrent request that won the unique index). Checking and inserting in one statement saves a round trip.
   */
  private insertUnlessNumberUsed(input: NewInvoice, id: string, number: number): Promise<InvoiceRecord | null> {
    const described = input.describe?.(number) ?? {};
    const totalAmount = described.totalAmount ?? input.totalAmount;
    if (totalAmount === undefined) throw new Error('an invoice needs its total amount');
    return insertProcessingInvoice(this.sql, {
      id,
      companyId: input.companyId,
      environment: input.environment,
      documentType: input.documentType,
      series: input.series,
      number,
      request: input.request,
      totalAmount,
      createdAt: input.createdAt ?? new Date(),
      ...(input.reissueOfId ? { reissueOfId: input.reissueOfId } : {}),
      ...(described.accessKey ? { accessKey: described.accessKey } : {}),
      ...(described.dpsId ? { dpsId: described.dpsId } : {}),
    });
  }

  /** Inside a transaction (`client`) through it; otherwise one prepared statement (the outcome wait's read). */
  async findById(id: string, client?: DbClient): Promise<InvoiceRecord | null> {
    if (!client) return selectInvoiceById(this.sql, id);
    const row = await client.invoice.findUnique({ where: { id } });
    return row ? toInvoiceRecord(row) : null;
  }

  /** The issue job's one read (issue-snapshot.ts): the invoice with its company, active certificate and exchanges. */
  async loadForIssue(id: string): Promise<IssueSnapshot | null> {
    return isUuid(id) ? selectIssueSnapshot(this.sql, id) : null;
  }

  /** Scoped read for the API: another company's invoice is simply not found. */
  async findForCompany(companyId: string, id: string): Promise<InvoiceRecord | null> {
    const row = await this.prisma.invoice.findFirst({ where: { id, companyId } });
    return row ? toInvoiceRecord(row) : null;
  }

  /** The invoice that reissued `id`, if any (at most one: reissue_of_id is unique). */
  async findReplacement(id: string): Promise<string | null> {
    const row = await this.prisma.invoice.findUnique({ where: { reissueOfId: id }, select: { id: true } });
    return row?.id ?? null;
  }

  /** For each of `ids` that was reissued, the invoice that reissued it (one query for a page of the list). */
  async findReplacements(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.prisma.invoice.findMany({ where: { reissueOfId: { in: [...ids] } }, select: { id: true, reissueOfId: true } });
    return new Map(rows.map((row) => [row.reissueOfId!, row.id]));
  }

  /** GET /invoices: newest first, scoped to the company and the credential's environment. */
  async listForCompany(query: InvoiceListQuery): Promise<{ total: number; data: InvoiceRecord[] }> {
    const where = {
      companyId: query.companyId,
      environment: query.environment,
      ...(query.documentType ? { documentType: query.documentType } : {}),
      ...(query.statuses?.length ? { status: { in: [...query.statuses] } } : {}),
    };
    const { total, data } = await pageWithTotal(
      this.prisma.invoice.count({ where }),
      this.prisma.invoice.findMany({ where, ...newestFirst(query) }),
    );
    return { total, data: data.map(toInvoiceRecord) };
  }

  /** GET /invoices/{access_key}: the company's invoice with that key (NF-e key, NFS-e key or DPS id). */
  async findByAccessKey(companyId: string, environment: EnvironmentName, accessKey: string): Promise<InvoiceRecord | null> {
    return isUuid(companyId) ? selectInvoiceByAccessKey(this.sql, companyId, environment, accessKey) : null;
  }

  /** Invoices still `processing` whose last change is older than `before` (the sweeper's work list). */
  async findStuckProcessing(before: Date, limit: number): Promise<Array<Pick<InvoiceRecord, 'id' | 'companyId' | 'updatedAt'>>> {
    return prismaSqlRunner(this.prisma).query('talao_stuck_processing', STUCK_PROCESSING, [before, limit]);
  }

  /**
   * A `processing` NF-e going to SVC contingency: its new access key (tpEmis 6/7) and the event saying why, in one
   * statement. False when the invoice is no longer `processing` (decided meanwhile): nothing changed.
   */
  setContingencyIdentity(id: string, accessKey: string, event: NewOutboxEvent): Promise<boolean> {
    return enterContingency(this.sql, id, accessKey, event);
  }

  /** Marks that the invoice was looked at again (the sweeper's clock restarts), without changing its state. */
  async touch(id: string): Promise<void> {
    await this.prisma.invoice.updateMany({ where: { id, status: 'processing' }, data: { updatedAt: new Date() } });
  }

  /**
   * The invoice out of `processing` with the outbox event reporting it, and what rides along (the deciding answer, a
   * production credit), in one statement (finish-with-event.ts). True when this call moved it; a second finisher
   * changes nothing and appends nothing.
   */
  finishWithEvent(id: string, state: FinalState, event: NewOutboxEvent, options: FinishOptions = {}): Promise<boolean> {
    return finishWithEvent(this.sql, id, state, event, options);
  }
}
