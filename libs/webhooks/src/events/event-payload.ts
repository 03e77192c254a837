// The body of a delivery, exactly as SPEC.md "Events": `{ event, data: { invoice_id, document_type, access_key,
// status, amount } }`, plus two additive fields, `id` (the event's id: one per state change, shared by every
// endpoint's delivery of it) and `created_at` (when the state change was committed).
//
// `access_key` is absent from a rejected attempt's event, as from its record (SPEC.md "Invoice record (as returned
// or reported)": a rejected document has no access key; `invoice_id` identifies it).
//
// `amount` is a JSON number written from the decimal text itself: going through a JS number would turn
// 12345678901234567.89 into 12345678901234568 (invariant 8: money is never binary floating point). What a receiver's
// JSON parser then makes of the token is its own choice; the bytes we sign carry the exact value.
import { type WebhookEventName } from './event-names.js';

export type DocumentType = 'nfe' | 'nfse';

export interface WebhookEventInput {
  /** The event's id (the outbox event id): stable, so a receiver can deduplicate across endpoints and retries. */
  id: string;
  event: WebhookEventName;
  /** When the state change the event reports was committed. */
  createdAt: Date;
  invoice: {
    invoiceId: string;
    documentType: DocumentType;
    /** Absent for a rejected attempt. */
    accessKey?: string;
    /** Decimal text as PostgreSQL's numeric or decimal.js `toFixed()` writes it, e.g. "1500.00". */
    amount: string;
  };
}

/** What a receiver parses (amount as its JSON parser reads a number). */
export interface WebhookEventPayload {
  id: string;
  event: WebhookEventName;
  created_at: string;
  data: { invoice_id: string; document_type: DocumentType; access_key?: string; status: string; amount: number };
}

/** `status` as SPEC.md shows it: `issued` for an authorized document, which a correction letter leaves authorized. */
const STATUS_OF_EVENT: Record<WebhookEventName, string> = {
  'invoice.authorized': 'issued',
  'invoice.rejected': 'rejected',
  'invoice.cancelled': 'cancelled',
  'invoice.corrected': 'issued',
};

/** A decimal in plain notation that is also a valid JSON number token (no exponent, no leading zeros, no `+`). */
const JSON_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

export class InvalidAmountError extends Error {
  constructor(amount: string) {
    super(`amount ${JSON.stringify(amount.slice(0, 40))} is not a plain decimal (like 1500.00)`);
    this.name = 'InvalidAmountError';
  }
}

/** The JSON number token for a decimal text, byte for byte (trailing zeros kept: "1500.00" stays 1500.00). */
export function jsonNumberToken(amount: string): string {
  if (!JSON_DECIMAL.test(amount)) throw new InvalidAmountError(amount);
  return amount;
}

export function statusOfEvent(event: WebhookEventName): string {
  return STATUS_OF_EVENT[event];
}

/** The exact body that is signed and sent (compact JSON, fields in the order of WebhookEventPayload). */
export function eventBody({ id, event, createdAt, invoice }: WebhookEventInput): string {
  const text = JSON.stringify;
  const data =
    `{"invoice_id":${text(invoice.invoiceId)},"document_type":${text(invoice.documentType)},` +
    (invoice.accessKey === undefined ? '' : `"access_key":${text(invoice.accessKey)},`) +
    `"status":${text(statusOfEvent(event))},"amount":${jsonNumberToken(invoice.amount)}}`;
  return `{"id":${text(id)},"event":${text(event)},"created_at":${text(createdAt.toISOString())},"data":${data}}`;
}
