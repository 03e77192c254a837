// GET /received-invoices: documents other companies issued against the company's tax id, as collected (PostgreSQL
// only: reading never spends the authority's query cap). Filters and pages as GET /invoices; any other parameter 422.
import type { ReceivedDocumentRecord, ReceivedDocumentsReads, ReceivedListQuery } from '@talao/persistence';
import {
  CONCLUSIVE_CUTOVER,
  CONCLUSIVE_DAYS,
  CONCLUSIVE_DAYS_BEFORE_CUTOVER,
  CONFIRMATION,
  MANIFESTATION_STATES,
  manifestationStateOf,
  OPERATION_NOT_PERFORMED,
  UNKNOWN_OPERATION,
} from '@talao/received-invoices/manifest';
import { z } from 'zod';
import { pageEnvelope } from '../http/pagination.js';
import { listQuery } from '../http/query-validation.js';

/** A calendar date (the whole day, Brasília time, as fiscal dates are) or a full ISO 8601 instant. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A day that exists: JavaScript's Date reads 2026-11-31 as 1 December instead of refusing it. */
function realDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
const instant = (endOfDay: boolean) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/)
    .refine(realDay)
    .transform((text) => new Date(DATE_ONLY.test(text) ? `${text}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}-03:00` : text))
    .refine((date) => !Number.isNaN(date.getTime()))
    .optional();

const receivedQuery = listQuery(
  {
    document_type: z.enum(['nfe', 'nfse']).optional(),
    issuer_tax_id: z
      .string()
      .regex(/^(\d{11}|[0-9A-Z]{12}\d{2})$/)
      .optional(),
    issued_from: instant(false),
    issued_to: instant(true),
    form: z.enum(['summary', 'full']).optional(),
    situation: z.enum(['authorized', 'cancelled', 'denied']).optional(),
    manifestation_state: z.enum(MANIFESTATION_STATES).optional(),
    awaiting_conclusive: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
    deadline_before: instant(false),
  },
  {
    document_type: { expected: 'one of: nfe, nfse' },
    issuer_tax_id: { expected: 'a CNPJ (14 characters) or CPF (11 digits), digits only' },
    issued_from: { expected: 'a date (YYYY-MM-DD) or an ISO 8601 date-time with offset' },
    issued_to: { expected: 'a date (YYYY-MM-DD) or an ISO 8601 date-time with offset' },
    form: { expected: 'one of: summary, full' },
    situation: { expected: 'one of: authorized, cancelled, denied' },
    manifestation_state: { expected: `one of: ${MANIFESTATION_STATES.join(', ')}` },
    awaiting_conclusive: { expected: 'true or false' },
    deadline_before: { expected: 'a date (YYYY-MM-DD) or an ISO 8601 date-time with offset' },
  },
);

export type ReceivedQuery = z.output<typeof receivedQuery.schema>;

export const parseReceivedQuery = receivedQuery.parse;

/** The manifestation side of a row (NF-e only): where it stands, its deadlines, and every event filed. */
function presentManifestation(record: ReceivedDocumentRecord, now: Date) {
  if (record.documentType !== 'nfe') return null;
  const { state, awaitingConclusive, deadlines } = manifestationStateOf(record.authorizedAt, record.manifestations, now);
  return {
    state,
    awaiting_conclusive: awaitingConclusive,
    deadlines: deadlines && {
      awareness: deadlines.awareness.toISOString(),
      conclusive: deadlines.conclusive.toISOString(),
      correction: deadlines.correction?.toISOString() ?? null,
    },
    history: record.manifestations.map(presentManifestationEvent),
  };
}

type ManifestationEvent = ReceivedDocumentRecord['manifestations'][number];

/** One manifestation as the API shows it (in a received record's history and in the manifestation answer). */
export function presentManifestationEvent(m: ManifestationEvent) {
  return {
    manifestation_id: m.id,
    manifestation: m.eventType,
    sequence: m.sequence,
    justification: m.justification,
    status: m.status,
    protocol: m.protocol,
    status_code: m.statusCode,
    status_message: m.statusMessage,
    registered_at: m.registeredAt?.toISOString() ?? null,
    filed_at: m.createdAt.toISOString(),
  };
}

const STATE_CODES = { confirmed: CONFIRMATION, unknown_operation: UNKNOWN_OPERATION, not_performed: OPERATION_NOT_PERFORMED } as const;

function manifestationFilter(query: ReceivedQuery, now: Date): ReceivedListQuery['manifestation'] {
  const state = query.manifestation_state;
  if (state === undefined && query.awaiting_conclusive === undefined && !query.deadline_before) return undefined;
  return {
    now,
    conclusiveDeadline: { cutover: CONCLUSIVE_CUTOVER, daysAfter: CONCLUSIVE_DAYS, daysBefore: CONCLUSIVE_DAYS_BEFORE_CUTOVER },
    ...(state && { state: state in STATE_CODES ? { conclusive: STATE_CODES[state as keyof typeof STATE_CODES] } : (state as 'none') }),
    ...(query.awaiting_conclusive !== undefined && { awaitingConclusive: query.awaiting_conclusive }),
    ...(query.deadline_before && { deadlineBefore: query.deadline_before }),
  };
}

export function presentReceived(record: ReceivedDocumentRecord, now = new Date()) {
  return {
    access_key: record.accessKey,
    document_type: record.documentType,
    issuer: { tax_id: record.issuerTaxId, name: record.issuerName },
    amount: record.totalValue,
    issued_at: record.issuedAt?.toISOString() ?? null,
    authorized_at: record.authorizedAt?.toISOString() ?? null,
    protocol: record.protocol,
    situation: record.situation,
    // summary: only the authority's resumo is held (before awareness / confirmation); full: the signed document too.
    form: record.hasFull ? 'full' : 'summary',
    events: record.events.map((e) => ({
      type: e.eventType,
      sequence: e.sequence,
      description: e.description,
      author_tax_id: e.authorTaxId,
      occurred_at: e.occurredAt?.toISOString() ?? null,
      protocol: e.protocol,
    })),
    manifestation: presentManifestation(record, now),
    collected_at: record.createdAt.toISOString(),
  };
}

export async function listReceived(
  reads: ReceivedDocumentsReads,
  scope: { companyId: string; environment: 'homologation' | 'production' },
  query: ReceivedQuery,
  now = new Date(),
) {
  const manifestation = manifestationFilter(query, now);
  const { total, data } = await reads.list({
    ...scope,
    ...(query.document_type && { documentType: query.document_type }),
    ...(query.issuer_tax_id && { issuerTaxId: query.issuer_tax_id }),
    ...(query.issued_from && { issuedFrom: query.issued_from }),
    ...(query.issued_to && { issuedTo: query.issued_to }),
    ...(query.form && { form: query.form }),
    ...(query.situation && { situation: query.situation }),
    ...(manifestation && { manifestation }),
    page: query.page,
    pageSize: query.page_size,
  });
  return pageEnvelope(
    total,
    query,
    data.map((record) => presentReceived(record, now)),
  );
}

// ES2023 lib typings predate JSON.rawJSON (V8 ships it; Node ≥ 21).
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** JSON text where a received row's `amount` (decimal text from NUMERIC) is written as the number token itself. */
export function receivedJson(body: unknown): string {
  return JSON.stringify(body, function (this: unknown, key: string, value: unknown) {
    const holder = this as Record<string, unknown> | null;
    if (key === 'amount' && typeof value === 'string' && DECIMAL.test(value) && typeof holder?.['access_key'] === 'string')
      return rawJSON(value);
    return value;
  });
}
