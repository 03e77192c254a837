// The recipient's manifestations on received NF-e: the row filed by the gateway (the business id of the `manifest`
// job), its exchanges with the authorizer stored before they leave (persist before send), the one statement that
// decides it, and the full document fetched after it (consChNFe). Plain SQL on the received tables' pool.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  answerParameters,
  type AuthorizerDecision,
  decisionParameters,
  type EnvironmentName,
  requestParameters,
} from './issuance-records.js';
import type { ReceivedDocumentInput } from './received-documents-repository.js';

export interface ManifestationRecord {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  documentId: string;
  accessKey: string;
  eventType: string;
  sequence: number;
  justification: string | null;
  status: 'pending' | 'registered' | 'rejected';
  protocol: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  registeredAt: Date | null;
  createdAt: Date;
}

/** A received document as manifestation needs it. */
export interface ManifestableDocument {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  documentType: 'nfe' | 'nfse';
  accessKey: string;
  situation: string;
  authorizedAt: Date | null;
  hasFull: boolean;
}

export type ManifestationDecision = AuthorizerDecision;

export interface ManifestationAnswer {
  responseBody: string | null;
  httpStatus: number | null;
  outcome: string;
  statusCode: string | null;
  statusMessage: string | null;
}

const COLUMNS = `m.id, m.company_id AS "companyId", m.environment::text AS environment, m.document_id AS "documentId",
  d.access_key AS "accessKey", m.event_type AS "eventType", m.sequence, m.justification, m.status, m.protocol,
  m.status_code AS "statusCode", m.status_message AS "statusMessage", m.registered_at AS "registeredAt", m.created_at AS "createdAt"`;

const DOCUMENT = `SELECT id, company_id AS "companyId", environment::text AS environment, document_type::text AS "documentType",
  access_key AS "accessKey", situation, authorized_at AS "authorizedAt", full_xml IS NOT NULL AS "hasFull" FROM received_documents`;

// A slot (document, type, nSeqEvento) left by a refused event is filed again in place: the authority registered
// nothing under that Id. A pending or registered one is never overwritten (the conflict answers nothing).
const FILE = `
INSERT INTO received_manifestations (id, company_id, environment, document_id, event_type, sequence, justification)
VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::uuid, $5, $6, $7)
ON CONFLICT (document_id, event_type, sequence) DO UPDATE SET status = 'pending', justification = EXCLUDED.justification,
  protocol = NULL, status_code = NULL, status_message = NULL, registered_at = NULL, updated_at = now()
WHERE received_manifestations.status = 'rejected'
RETURNING id`;

const BEGIN = `
INSERT INTO received_manifestation_transmissions (id, manifestation_id, operation, endpoint, request_body)
SELECT $1::uuid, m.id, $3, $4, $5 FROM received_manifestations m WHERE m.id = $2::uuid RETURNING id`;

const ANSWER = `
UPDATE received_manifestation_transmissions SET response_body = $2, http_status = $3, outcome = $4, status_code = $5,
  status_message = $6, answered_at = now() WHERE id = $1::uuid RETURNING id`;

// Decides once: only a pending row moves; the deciding answer rides along in the same statement.
const FINISH = `
WITH answered AS (
  UPDATE received_manifestation_transmissions SET response_body = $7, http_status = $8, outcome = $9, status_code = $10,
    status_message = $11, answered_at = now() WHERE id = $6::uuid RETURNING id
), moved AS (
  UPDATE received_manifestations SET status = $2::varchar, protocol = $3, status_code = $4, status_message = $5,
    registered_at = CASE WHEN $2::varchar = 'registered' THEN now() ELSE NULL END, updated_at = now()
  WHERE id = $1::uuid AND status = 'pending' RETURNING id
)
SELECT (SELECT count(*) FROM moved)::int AS moved`;

// The full document fetched by key after a manifestation: the row is upgraded in place (as a distributed nfeProc is).
const STORE_FULL = `
UPDATE received_documents SET full_xml = $4, full_nsu = COALESCE(full_nsu, $5),
  issuer_name = COALESCE($6, issuer_name), issued_at = COALESCE($7, issued_at), total_value = COALESCE($8::numeric, total_value),
  protocol = COALESCE(protocol, $9), updated_at = now()
WHERE company_id = $1::uuid AND environment = $2::"Environment" AND access_key = $3 AND full_xml IS NULL RETURNING id`;

export class ReceivedManifestationsRepository {
  constructor(private readonly pool: pg.Pool) {}

  async findDocument(companyId: string, environment: EnvironmentName, accessKey: string): Promise<ManifestableDocument | null> {
    const { rows } = await this.pool.query<ManifestableDocument>(
      `${DOCUMENT} WHERE company_id = $1::uuid AND environment = $2::"Environment" AND access_key = $3`,
      [companyId, environment, accessKey],
    );
    return rows[0] ?? null;
  }

  async documentById(id: string): Promise<ManifestableDocument | null> {
    const { rows } = await this.pool.query<ManifestableDocument>(`${DOCUMENT} WHERE id = $1::uuid`, [id]);
    return rows[0] ?? null;
  }

  async listForDocument(documentId: string): Promise<ManifestationRecord[]> {
    const { rows } = await this.pool.query<ManifestationRecord>(
      `SELECT ${COLUMNS} FROM received_manifestations m JOIN received_documents d ON d.id = m.document_id
       WHERE m.document_id = $1::uuid ORDER BY m.created_at`,
      [documentId],
    );
    return rows;
  }

  async findById(id: string): Promise<ManifestationRecord | null> {
    const { rows } = await this.pool.query<ManifestationRecord>(
      `SELECT ${COLUMNS} FROM received_manifestations m JOIN received_documents d ON d.id = m.document_id WHERE m.id = $1::uuid`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Files the manifestation `pending`; null when the slot is taken by one pending or registered (a concurrent request). */
  async file(input: {
    document: ManifestableDocument;
    eventType: string;
    sequence: number;
    justification: string | null;
  }): Promise<ManifestationRecord | null> {
    const { document } = input;
    const { rows } = await this.pool.query<{ id: string }>(FILE, [
      randomUUID(),
      document.companyId,
      document.environment,
      document.id,
      input.eventType,
      input.sequence,
      input.justification,
    ]);
    return rows[0] ? this.findById(rows[0].id) : null;
  }

  /** Manifestations still pending since before `olderThan` (their job may have been lost with Redis). */
  async stalePending(olderThan: Date, limit = 100): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM received_manifestations WHERE status = 'pending' AND updated_at < $1 ORDER BY updated_at LIMIT $2`,
      [olderThan, limit],
    );
    return rows.map((r) => r.id);
  }

  async transmissions(manifestationId: string): Promise<Array<{ operation: string; requestBody: string; outcome: string | null }>> {
    const { rows } = await this.pool.query<{ operation: string; requestBody: string; outcome: string | null }>(
      `SELECT operation, request_body AS "requestBody", outcome FROM received_manifestation_transmissions
       WHERE manifestation_id = $1::uuid ORDER BY sent_at, id`,
      [manifestationId],
    );
    return rows;
  }

  /** Stores an exchange's exact request (committed when this resolves: only then may it leave). */
  async begin(manifestationId: string, call: { operation: string; endpoint: string; requestBody: string }): Promise<{ id: string }> {
    const { rows } = await this.pool.query<{ id: string }>(BEGIN, requestParameters(manifestationId, call));
    if (!rows[0]) throw new Error(`manifestation ${manifestationId} not found`);
    return rows[0];
  }

  async answer(transmissionId: string, answer: ManifestationAnswer): Promise<void> {
    await this.pool.query(ANSWER, [transmissionId, ...answerParameters(answer)]);
  }

  /** Decides the manifestation (only a pending one moves) with the deciding answer; true when this call moved it. */
  async finish(
    id: string,
    decision: ManifestationDecision,
    answered?: { submissionId: string; answer: ManifestationAnswer },
  ): Promise<boolean> {
    const { rows } = await this.pool.query<{ moved: number }>(FINISH, decisionParameters(id, decision, answered));
    return (rows[0]?.moved ?? 0) > 0;
  }

  /** The full document (nfeProc) fetched by key; false when it was already held. */
  async storeFull(companyId: string, environment: EnvironmentName, document: ReceivedDocumentInput): Promise<boolean> {
    const { rows } = await this.pool.query(STORE_FULL, [
      companyId,
      environment,
      document.accessKey,
      document.xml,
      document.nsu,
      document.issuerName,
      document.issuedAt,
      document.totalValue,
      document.protocol,
    ]);
    return rows.length > 0;
  }
}
