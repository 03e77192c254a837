// list_received_invoices: GET /api/v1/received-invoices — documents other companies issued against the company's tax
// id, as already collected (no authorizer call).
import { z } from 'zod';
import { listTool } from './list-tool.js';
import { documentType } from './tool-context.js';

export const registerListReceivedInvoices = listTool({
  name: 'list_received_invoices',
  title: 'List received invoices',
  description:
    'Invoices other companies issued against this company, as collected from the authorizers (newest first), with each one’s ' +
    'manifestation state and deadline; filter to find the one to answer.',
  path: 'api/v1/received-invoices',
  filters: {
    document_type: documentType.optional(),
    issuer_tax_id: z.string().optional().describe('Only those of this issuer (CNPJ or CPF, digits only).'),
    situation: z.enum(['authorized', 'cancelled', 'denied']).optional(),
    issued_from: z.string().optional().describe('Issued on or after: YYYY-MM-DD (a Brasília day) or an ISO 8601 date-time.'),
    issued_to: z.string().optional().describe('Issued on or before: YYYY-MM-DD (a Brasília day) or an ISO 8601 date-time.'),
    form: z.enum(['summary', 'full']).optional().describe('summary: only the summary is held yet; full: the signed XML is held.'),
    // The states the API lists (received-invoices' MANIFESTATION_STATES); an unknown one is the API's 422.
    manifestation_state: z
      .enum(['none', 'awareness', 'confirmed', 'unknown_operation', 'not_performed', 'deemed_confirmed'])
      .optional()
      .describe('The company’s position so far (none: nothing filed yet).'),
    awaiting_conclusive: z.enum(['true', 'false']).optional().describe('true: a conclusive manifestation is still due.'),
  },
  row: 'received invoice',
});
