// Received invoices: what distribution sync writes (documents, events, the cursor and the authority's back-off) and
// what the API reads. A page of the feed and the NSU that follows it are committed in one transaction, so a crash
// between pages re-reads at most the page in flight and the cursor never skips one; every write is idempotent
// (unique access key per company and environment, unique event per key, type and sequence).
import type pg from 'pg';
import type { DocumentTypeName, EnvironmentName } from './issuance-records.js';

export interface ReceivedScope {
  companyId: string;
  environment: EnvironmentName;
  channel: DocumentTypeName;
}

export interface ReceivedSyncStateRecord {
  lastNsu: string;
  maxNsu: string | null;
  lastQueryAt: Date | null;
  lastCode: string | null;
  lastMessage: string | null;
  blockedUntil: Date | null;
  blockedCode: string | null;
  blockedReason: string | null;
}

/** A summary (resNFe) or a full document (procNFe) of one access key. */
export interface ReceivedDocumentInput {
  form: 'summary' | 'full';
  nsu: string;
  accessKey: string;
  issuerTaxId: string;
  issuerName: string | null;
  issuedAt: Date | null;
  authorizedAt: Date | null;
  /** Decimal text with two places (vNF), never a float. */
  totalValue: string | null;
  protocol: string | null;
  situation: 'authorized' | 'denied' | 'cancelled';
  xml: string;
}

export interface ReceivedEventInput {
  nsu: string;
  accessKey: string;
  eventType: string;
  sequence: number;
  description: string | null;
  authorTaxId: string | null;
  occurredAt: Date | null;
  protocol: string | null;
  xml: string;
}

/** What one answer of the authority leaves: the page's content, the new cursor and, after 137/656, the back-off. */
export interface ReceivedPage {
  documents: readonly ReceivedDocumentInput[];
  events: readonly ReceivedEventInput[];
  lastNsu: string;
  maxNsu: string | null;
  code: string;
  message: string;
  queriedAt: Date;
  block?: { until: Date; code: string; reason: string };
}

/** One sync holding the tax id's lock: its own connection, on which each page is a transaction. */
export interface ReceivedSyncSession {
  state(): Promise<ReceivedSyncStateRecord>;
  commitPage(page: ReceivedPage): Promise<void>;
}

const EVENT_CANCELLATION = '110111';

const UPSERT_SUMMARY = `
INSERT INTO received_documents (id, company_id, environment, document_type, access_key, issuer_tax_id, issuer_name, issued_at,
  authorized_at, total_value, protocol, situation, summary_xml, summary_nsu)
VALUES (gen_random_uuid(), $1, $2::"Environment", $3::"DocumentType", $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12, $13)
ON CONFLICT (company_id, environment, access_key) DO UPDATE SET
  summary_xml = EXCLUDED.summary_xml, summary_nsu = EXCLUDED.summary_nsu,
  situation = CASE WHEN received_documents.situation = 'cancelled' THEN 'cancelled' ELSE EXCLUDED.situation END,
  issuer_name = COALESCE(received_documents.issuer_name, EXCLUDED.issuer_name),
  issued_at = COALESCE(received_documents.issued_at, EXCLUDED.issued_at),
  authorized_at = COALESCE(received_documents.authorized_at, EXCLUDED.authorized_at),
  total_value = COALESCE(received_documents.total_value, EXCLUDED.total_value),
  protocol = COALESCE(received_documents.protocol, EXCLUDED.protocol),
  updated_at = now()
WHERE received_documents.summary_nsu IS NULL OR received_documents.summary_nsu <= EXCLUDED.summary_nsu
RETURNING id`;

const UPSERT_FULL = `
INSERT INTO received_documents (id, company_id, environment, document_type, access_key, issuer_tax_id, issuer_name, issued_at,
  authorized_at, total_value, protocol, situation, full_xml, full_nsu)
VALUES (gen_random_uuid(), $1, $2::"Environment", $3::"DocumentType", $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12, $13)
ON CONFLICT (company_id, environment, access_key) DO UPDATE SET
  full_xml = EXCLUDED.full_xml, full_nsu = EXCLUDED.full_nsu,
  issuer_name = COALESCE(EXCLUDED.issuer_name, received_documents.issuer_name),
  issued_at = COALESCE(EXCLUDED.issued_at, received_documents.issued_at),
  authorized_at = COALESCE(received_documents.authorized_at, EXCLUDED.authorized_at),
  total_value = COALESCE(EXCLUDED.total_value, received_documents.total_value),
  protocol = COALESCE(received_documents.protocol, EXCLUDED.protocol),
  updated_at = now()
RETURNING id`;

const INSERT_EVENT = `
INSERT INTO received_events (id, company_id, environment, access_key, document_id, event_type, sequence, description, author_tax_id,
  occurred_at, protocol, xml, nsu)
VALUES (gen_random_uuid(), $1::uuid, $2::"Environment", $3::varchar, (SELECT id FROM received_documents WHERE company_id = $1::uuid
  AND environment = $2::"Environment" AND access_key = $3::varchar), $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (company_id, environment, access_key, event_type, sequence) DO NOTHING`;

/** Events that arrived before their document are linked once it is held. */
const LINK_EVENTS = `
UPDATE received_events SET document_id = $4::uuid WHERE company_id = $1::uuid AND environment = $2::"Environment" AND access_key = $3::varchar
  AND document_id IS NULL`;

const CANCEL_DOCUMENT = `
UPDATE received_documents SET situation = 'cancelled', updated_at = now()
WHERE company_id = $1 AND environment = $2::"Environment" AND access_key = $3`;

// The cursor only moves forward (NSUs are zero-padded text of one width, so text order is numeric order).
const SAVE_STATE = `
INSERT INTO received_sync_states (company_id, environment, channel, last_nsu, max_nsu, last_query_at, last_code, last_message,
  blocked_until, blocked_code, blocked_reason, updated_at)
VALUES ($1, $2::"Environment", $3::"DocumentType", $4, $5, $6, $7, $8, $9, $10, $11, now())
ON CONFLICT (company_id, environment, channel) DO UPDATE SET
  last_nsu = GREATEST(received_sync_states.last_nsu, EXCLUDED.last_nsu), max_nsu = EXCLUDED.max_nsu,
  last_query_at = EXCLUDED.last_query_at, last_code = EXCLUDED.last_code, last_message = EXCLUDED.last_message,
  blocked_until = EXCLUDED.blocked_until, blocked_code = EXCLUDED.blocked_code, blocked_reason = EXCLUDED.blocked_reason,
  updated_at = now()`;

const READ_STATE = `
SELECT last_nsu AS "lastNsu", max_nsu AS "maxNsu", last_query_at AS "lastQueryAt", last_code AS "lastCode",
  last_message AS "lastMessage", blocked_until AS "blockedUntil", blocked_code AS "blockedCode", blocked_reason AS "blockedReason"
FROM received_sync_states WHERE company_id = $1 AND environment = $2::"Environment" AND channel = $3::"DocumentType"`;

const EMPTY_STATE: ReceivedSyncStateRecord = {
  lastNsu: '000000000000000',
  maxNsu: null,
  lastQueryAt: null,
  lastCode: null,
  lastMessage: null,
  blockedUntil: null,
  blockedCode: null,
  blockedReason: null,
};

async function readState(db: pg.Pool | pg.PoolClient, scope: ReceivedScope): Promise<ReceivedSyncStateRecord> {
  const { rows } = await db.query<ReceivedSyncStateRecord>(READ_STATE, [scope.companyId, scope.environment, scope.channel]);
  return rows[0] ?? EMPTY_STATE;
}

async function writePage(client: pg.PoolClient, scope: ReceivedScope, page: ReceivedPage): Promise<void> {
  const { companyId, environment, channel } = scope;
  for (const d of page.documents) {
    const { rows } = await client.query<{ id: string }>(d.form === 'summary' ? UPSERT_SUMMARY : UPSERT_FULL, [
      companyId,
      environment,
      channel,
      d.accessKey,
      d.issuerTaxId,
      d.issuerName,
      d.issuedAt,
      d.authorizedAt,
      d.totalValue,
      d.protocol,
      d.situation,
      d.xml,
      d.nsu,
    ]);
    if (rows[0]) await client.query(LINK_EVENTS, [companyId, environment, d.accessKey, rows[0].id]);
  }
  for (const e of page.events) {
    await client.query(INSERT_EVENT, [
      companyId,
      environment,
      e.accessKey,
      e.eventType,
      e.sequence,
      e.description,
      e.authorTaxId,
      e.occurredAt,
      e.protocol,
      e.xml,
      e.nsu,
    ]);
    if (e.eventType === EVENT_CANCELLATION) await client.query(CANCEL_DOCUMENT, [companyId, environment, e.accessKey]);
  }
  const block = page.block;
  await client.query(SAVE_STATE, [
    companyId,
    environment,
    channel,
    page.lastNsu,
    page.maxNsu,
    page.queriedAt,
    page.code,
    page.message,
    block?.until ?? null,
    block?.code ?? null,
    block?.reason ?? null,
  ]);
}

export class ReceivedDocumentsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Who is collected on a schedule: companies with an active certificate, in each environment they hold a live key for. */
  async scheduledCompanies(): Promise<Array<{ companyId: string; environment: EnvironmentName }>> {
    const { rows } = await this.pool.query<{ companyId: string; environment: EnvironmentName }>(
      `SELECT DISTINCT k.company_id AS "companyId", k.environment::text AS environment FROM api_keys k
       WHERE k.revoked_at IS NULL AND EXISTS (SELECT 1 FROM certificates c WHERE c.company_id = k.company_id AND c.replaced_at IS NULL)`,
    );
    return rows;
  }

  syncState(scope: ReceivedScope): Promise<ReceivedSyncStateRecord> {
    return readState(this.pool, scope);
  }

  /**
   * Runs `work` holding the tax id's session advisory lock on a connection of its own, or answers `busy` at once
   * when another sync (any worker, any process) holds it. A worker that dies loses its connection, and PostgreSQL
   * releases the lock with it: no stale lock to expire.
   */
  async withTaxIdLock<T>(taxId: string, scope: ReceivedScope, work: (session: ReceivedSyncSession) => Promise<T>): Promise<T | 'busy'> {
    const client = await this.pool.connect();
    const lockKey = `received-sync:${taxId}`;
    let locked = false;
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [lockKey]);
      locked = rows[0]?.locked === true;
      if (!locked) return 'busy';
      return await work({
        state: () => readState(client, scope),
        commitPage: async (page) => {
          await client.query('BEGIN');
          try {
            await writePage(client, scope, page);
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw error;
          }
        },
      });
    } finally {
      // A connection whose unlock failed is destroyed, not pooled: closing it is what releases the lock then.
      const unlocked =
        !locked ||
        (await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]).then(
          () => true,
          () => false,
        ));
      client.release(!unlocked);
    }
  }
}
