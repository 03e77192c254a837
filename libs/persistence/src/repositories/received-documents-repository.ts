// Received invoices: what distribution sync writes (documents, events, the cursor and the authority's back-off) and
// what the API reads. A page of the feed and the NSU that follows it are committed in one transaction, so a crash
// between pages re-reads at most the page in flight and the cursor never skips one; every write is idempotent
// (unique access key per company and environment, unique event per key, type and sequence).
import type pg from 'pg';
import type { DocumentTypeName, EnvironmentName } from './issuance-records.js';
import type { ReceivedDocumentFields, ReceivedEventRecord } from './received-documents-reads.js';

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
export interface ReceivedDocumentInput extends ReceivedDocumentFields {
  form: 'summary' | 'full';
  nsu: string;
  situation: 'authorized' | 'denied' | 'cancelled';
  xml: string;
}

/** An event on one access key, as the feed delivers it. */
export interface ReceivedEventInput extends ReceivedEventRecord {
  nsu: string;
  accessKey: string;
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

// Cancellation: NF-e 110111, NFS-e Nacional 101101.
const CANCELLATIONS = "('110111', '101101')";

// A page is written in a few multi-row statements (unnest of arrays), not one statement per document: the round
// trips, not the rows, were the cost (bench:received). A key appears at most once per statement (deduplicated below,
// the highest NSU winning), since ON CONFLICT DO UPDATE may not touch one row twice.
const DOCUMENT_ROWS = `
SELECT * FROM unnest($4::varchar[], $5::varchar[], $6::varchar[], $7::timestamptz[], $8::timestamptz[], $9::numeric[], $10::varchar[],
  $11::varchar[], $12::text[], $13::varchar[])
  AS r(access_key, issuer_tax_id, issuer_name, issued_at, authorized_at, total_value, protocol, situation, xml, nsu)`;

// A held row keeps what it has of a document's own fields (issuer name, dates, value, protocol) and fills its blanks;
// each form's upsert names the columns where the new value wins instead (`newWins`).
const DESCRIPTIVE_COLUMNS = ['issuer_name', 'issued_at', 'authorized_at', 'total_value', 'protocol'];

const keepOrFill = (newWins: readonly string[]) =>
  DESCRIPTIVE_COLUMNS.map((c) =>
    newWins.includes(c)
      ? `${c} = COALESCE(EXCLUDED.${c}, received_documents.${c})`
      : `${c} = COALESCE(received_documents.${c}, EXCLUDED.${c})`,
  );

/** The upsert of one form's documents into its own xml and NSU columns; `set` is how a held row takes them. */
const upsertForm = (form: 'summary' | 'full', set: readonly string[], onlyWhen?: string) => `
INSERT INTO received_documents (id, company_id, environment, document_type, access_key, issuer_tax_id, issuer_name, issued_at,
  authorized_at, total_value, protocol, situation, ${form}_xml, ${form}_nsu)
SELECT gen_random_uuid(), $1::uuid, $2::"Environment", $3::"DocumentType", r.access_key, r.issuer_tax_id, r.issuer_name, r.issued_at,
  r.authorized_at, r.total_value, r.protocol, r.situation, r.xml, r.nsu FROM (${DOCUMENT_ROWS}) r
ON CONFLICT (company_id, environment, access_key) DO UPDATE SET
  ${form}_xml = EXCLUDED.${form}_xml, ${form}_nsu = EXCLUDED.${form}_nsu,
  ${set.join(',\n  ')},
  updated_at = now()${onlyWhen ? `\nWHERE ${onlyWhen}` : ''}`;

// A summary never revives a cancelled document, and an older summary never replaces a newer one.
const UPSERT_SUMMARIES = upsertForm(
  'summary',
  [`situation = CASE WHEN received_documents.situation = 'cancelled' THEN 'cancelled' ELSE EXCLUDED.situation END`, ...keepOrFill([])],
  'received_documents.summary_nsu IS NULL OR received_documents.summary_nsu <= EXCLUDED.summary_nsu',
);

// The full document's issuer name, issue date and value win over a summary's; the authorization stays as first held.
const UPSERT_FULL = upsertForm('full', keepOrFill(['issuer_name', 'issued_at', 'total_value']));

const INSERT_EVENTS = `
INSERT INTO received_events (id, company_id, environment, access_key, event_type, sequence, description, author_tax_id, occurred_at,
  protocol, xml, nsu)
SELECT gen_random_uuid(), $1::uuid, $2::"Environment", r.* FROM unnest($3::varchar[], $4::varchar[], $5::int[], $6::varchar[],
  $7::varchar[], $8::timestamptz[], $9::varchar[], $10::text[], $11::varchar[]) AS r
ON CONFLICT (company_id, environment, access_key, event_type, sequence) DO NOTHING`;

/** Events link to their document once it is held (either may come first), and a cancellation marks the document. */
const LINK_AND_CANCEL = `
WITH linked AS (
  UPDATE received_events e SET document_id = d.id FROM received_documents d
  WHERE e.company_id = $1::uuid AND e.environment = $2::"Environment" AND e.access_key = ANY($3::varchar[]) AND e.document_id IS NULL
    AND d.company_id = e.company_id AND d.environment = e.environment AND d.access_key = e.access_key
)
UPDATE received_documents d SET situation = 'cancelled', updated_at = now()
WHERE d.company_id = $1::uuid AND d.environment = $2::"Environment" AND d.access_key = ANY($3::varchar[]) AND d.situation <> 'cancelled'
  AND EXISTS (SELECT 1 FROM received_events e WHERE e.company_id = d.company_id AND e.environment = d.environment
    AND e.access_key = d.access_key AND e.event_type IN ${CANCELLATIONS})`;

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

/** One row per access key: the document with the highest NSU of the page (the latest word of the authority). */
function latestPerKey(documents: readonly ReceivedDocumentInput[]): ReceivedDocumentInput[] {
  const byKey = new Map<string, ReceivedDocumentInput>();
  for (const d of documents) {
    const held = byKey.get(d.accessKey);
    if (!held || held.nsu <= d.nsu) byKey.set(d.accessKey, d);
  }
  return [...byKey.values()];
}

const columns = (rows: readonly ReceivedDocumentInput[]) => [
  rows.map((d) => d.accessKey),
  rows.map((d) => d.issuerTaxId),
  rows.map((d) => d.issuerName),
  rows.map((d) => d.issuedAt),
  rows.map((d) => d.authorizedAt),
  rows.map((d) => d.totalValue),
  rows.map((d) => d.protocol),
  rows.map((d) => d.situation),
  rows.map((d) => d.xml),
  rows.map((d) => d.nsu),
];

async function writePage(client: pg.PoolClient, scope: ReceivedScope, page: ReceivedPage): Promise<void> {
  const { companyId, environment, channel } = scope;
  const summaries = latestPerKey(page.documents.filter((d) => d.form === 'summary'));
  const full = latestPerKey(page.documents.filter((d) => d.form === 'full'));
  if (summaries.length > 0) await client.query(UPSERT_SUMMARIES, [companyId, environment, channel, ...columns(summaries)]);
  if (full.length > 0) await client.query(UPSERT_FULL, [companyId, environment, channel, ...columns(full)]);
  const events = page.events;
  if (events.length > 0) {
    await client.query(INSERT_EVENTS, [
      companyId,
      environment,
      events.map((e) => e.accessKey),
      events.map((e) => e.eventType),
      events.map((e) => e.sequence),
      events.map((e) => e.description),
      events.map((e) => e.authorTaxId),
      events.map((e) => e.occurredAt),
      events.map((e) => e.protocol),
      events.map((e) => e.xml),
      events.map((e) => e.nsu),
    ]);
  }
  // Only a page with events, or with documents that may have had events before them, can link or cancel anything.
  const keys = [...new Set([...page.documents.map((d) => d.accessKey), ...events.map((e) => e.accessKey)])];
  if (keys.length > 0) await client.query(LINK_AND_CANCEL, [companyId, environment, keys]);
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

export interface ReceivedCapState {
  companyId: string;
  environment: EnvironmentName;
  channel: 'nfe' | 'nfse';
  blockedUntil: Date | null;
  blockedCode: string | null;
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

  /** Every company's distribution cursor with the authority's cap on it (for /metrics): held until when, by which code. */
  async capStates(): Promise<ReceivedCapState[]> {
    const { rows } = await this.pool.query<ReceivedCapState>(
      `SELECT company_id AS "companyId", environment::text AS environment, channel::text AS channel,
              blocked_until AS "blockedUntil", blocked_code AS "blockedCode"
       FROM received_sync_states`,
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
