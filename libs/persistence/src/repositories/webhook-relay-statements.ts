// One step of the webhook relay, as the statements of one transaction: take unpublished outbox events (SKIP LOCKED),
// read the endpoints of their companies, insert the planned deliveries and mark the events published. In the
// dispatcher the transaction runs on a connection of its pg pool as prepared statements (inPoolTransaction): four
// statements besides BEGIN and COMMIT, none of Prisma's per-query machinery, and no interactive transaction to keep
// open across its round trips.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { EnvironmentName } from './issuance-records.js';
import type { SqlRunner } from './sql-runner.js';

/** An outbox event as the relay reads it, with the invoice it reports on (null when the aggregate is no invoice). */
export interface RelayEvent {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  invoice: { id: string; documentType: 'nfe' | 'nfse'; accessKey: string | null; dpsId: string | null; amount: string } | null;
  /** The W3C traceparent the event was written under (tracing on), null otherwise. */
  traceParent: string | null;
}

export interface RelayEndpoint {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  events: string[];
}

/** One delivery the relay's plan asks for: this event's body for this endpoint. */
export interface PlannedDelivery {
  event: RelayEvent;
  endpointId: string;
  body: string;
}

export interface NewDeliveryRef {
  id: string;
  endpointId: string;
  /** Its event's traceparent: the first attempt is enqueued in that trace. */
  traceParent: string | null;
}

export type RelayPlan = (events: RelayEvent[], endpoints: RelayEndpoint[]) => PlannedDelivery[];

const RELAY_EVENTS = `SELECT o.id, o.company_id, o.environment::text AS environment, o.type, o.payload, o.created_at, o.trace_parent,
       i.id AS invoice_id, i.document_type::text AS document_type, i.access_key, i.dps_id, i.total_amount::text AS amount
FROM outbox_events o LEFT JOIN invoices i ON i.id = o.aggregate_id
WHERE o.published_at IS NULL
ORDER BY o.created_at
LIMIT $1
FOR UPDATE OF o SKIP LOCKED`;

const RELAY_ENDPOINTS = `SELECT id, company_id, environment::text AS environment, events
FROM webhook_endpoints WHERE company_id = ANY($1::uuid[]) AND deleted_at IS NULL`;

// The deliveries and the events' publication in one statement (a data-modifying CTE always runs to completion), so
// a step costs one round trip fewer; with no delivery planned the arrays are empty and only the UPDATE does anything.
const INSERT_DELIVERIES_AND_PUBLISH = `WITH published AS (
  UPDATE outbox_events SET published_at = now() WHERE id = ANY($9::uuid[])
)
INSERT INTO webhook_deliveries (id, endpoint_id, company_id, environment, event_id, event, invoice_id, body, next_attempt_at)
SELECT d.id, d.endpoint_id, d.company_id, d.environment::"Environment", d.event_id, d.event, d.invoice_id, d.body, now()
FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::varchar[], $7::uuid[], $8::text[])
  AS d(id, endpoint_id, company_id, environment, event_id, event, invoice_id, body)
ON CONFLICT (event_id, endpoint_id) DO NOTHING
RETURNING id, endpoint_id, event_id`;

/** One relay step inside the caller's transaction; answers the events taken and the deliveries created. */
export async function relayStep(sql: SqlRunner, limit: number, plan: RelayPlan): Promise<{ events: number; deliveries: NewDeliveryRef[] }> {
  const rows = await sql.query<Record<string, unknown>>('talao_webhook_relay_events', RELAY_EVENTS, [limit]);
  if (rows.length === 0) return { events: 0, deliveries: [] };
  const events = rows.map(relayEventOf);
  const companies = [...new Set(events.map((event) => event.companyId))];
  const endpoints = await sql.query<{ id: string; company_id: string; environment: EnvironmentName; events: string[] }>(
    'talao_webhook_relay_endpoints',
    RELAY_ENDPOINTS,
    [companies],
  );
  const planned = plan(
    events,
    endpoints.map((row) => ({ id: row.id, companyId: row.company_id, environment: row.environment, events: row.events })),
  );
  const column = <T>(of: (d: PlannedDelivery) => T) => planned.map(of);
  const inserted = await sql.query<{ id: string; endpoint_id: string; event_id: string }>(
    'talao_webhook_relay_insert',
    INSERT_DELIVERIES_AND_PUBLISH,
    [
      column(() => randomUUID()),
      column((d) => d.endpointId),
      column((d) => d.event.companyId),
      column((d) => d.event.environment),
      column((d) => d.event.id),
      column((d) => d.event.type),
      column((d) => d.event.invoice!.id),
      column((d) => d.body),
      events.map((event) => event.id),
    ],
  );
  const traceParents = new Map(events.map((event) => [event.id, event.traceParent]));
  return {
    events: events.length,
    deliveries: inserted.map((row) => ({ id: row.id, endpointId: row.endpoint_id, traceParent: traceParents.get(row.event_id) ?? null })),
  };
}

function relayEventOf(row: Record<string, unknown>): RelayEvent {
  return {
    id: row['id'] as string,
    companyId: row['company_id'] as string,
    environment: row['environment'] as EnvironmentName,
    type: row['type'] as string,
    payload: (row['payload'] ?? {}) as Record<string, unknown>,
    createdAt: row['created_at'] as Date,
    invoice: row['invoice_id']
      ? {
          id: row['invoice_id'] as string,
          documentType: row['document_type'] as 'nfe' | 'nfse',
          accessKey: row['access_key'] as string | null,
          dpsId: row['dps_id'] as string | null,
          amount: row['amount'] as string,
        }
      : null,
    traceParent: (row['trace_parent'] as string | null) ?? null,
  };
}

/**
 * `work` in one transaction on a connection of `pool`, its statements prepared (named) on that connection. A
 * connection whose ROLLBACK failed is destroyed rather than returned to the pool in an unknown state.
 */
export async function inPoolTransaction<T>(pool: pg.Pool, work: (sql: SqlRunner) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work({
      query: async <R>(name: string, text: string, values: unknown[]) => (await client.query({ name, text, values })).rows as R[],
    });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}
