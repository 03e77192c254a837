// What every tool file shares: the caller's REST client, the annotations SPEC.md asks for, the common argument and
// output schemas.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { GatewayClient } from '../api-client.js';

export interface ToolContext {
  /** The REST API with this request's own credential. */
  readonly api: GatewayClient;
}

export type ToolRegistration = (server: McpServer, context: ToolContext) => void;

/** SPEC.md: tools that change a document declare readOnlyHint false, openWorldHint true and are marked destructive. */
export const CHANGES_A_DOCUMENT: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
/** Read-only tools reach the API (and the authorizer, for a consult): open world, nothing changed. */
export const READS_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: true };

export const documentType = z.enum(['nfe', 'nfse']).describe('nfe: goods invoice (NF-e model 55). nfse: service invoice (NFS-e Nacional).');
export const accessKey = z
  .string()
  .min(1)
  .describe('The access key (NF-e 44 digits, NFS-e 50 characters); consult also takes an invoice_id or an NFS-e DPS id.');
export const invoiceId = z.string().min(1).describe('The invoice_id (UUID) the API returned at issuance.');
export const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe('Sent as the Idempotency-Key header: the same key with the same arguments answers the first result again, never twice.');
/**
 * Free text an event carries (reason, correction, justification): what the API accepts, said and checked here so an
 * agent learns it before the person confirms — printable Latin-1 (accented letters yes; curly quotes, dashes like "–",
 * "…" and emoji no); line breaks become spaces.
 */
export const eventText = (min: number, max: number, what: string) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[\x20-\x7E\xA0-\xFF\t\r\n]*$/, 'only printable Latin-1: no curly quotes, long dashes, "…" or emoji')
    .describe(`${what}, ${min} to ${max} characters of printable Latin-1 (accents yes; curly quotes, long dashes, "…" and emoji no).`);
export const reason = eventText(15, 255, 'Why (sent to the authorizer)');

/** Every result carries the API's HTTP status; the rest is the API's JSON body as documented in its OpenAPI. */
export const apiOutput = z.looseObject({ http_status: z.number().int().describe('The REST API status code') });
/** An invoice record (POST /invoices, reissue, cancel answers). */
export const invoiceOutput = apiOutput.extend({
  invoice_id: z.string().optional(),
  document_type: z.string().optional(),
  access_key: z.string().nullable().optional(),
  status: z.string().optional(),
});

export function invoiceSummary(body: Record<string, unknown>): string {
  const key = body['access_key'] ? `, access key ${String(body['access_key'])}` : '';
  return `Invoice ${String(body['invoice_id'] ?? '?')} (${String(body['document_type'] ?? '?')}) is ${String(body['status'] ?? '?')}${key}`;
}
