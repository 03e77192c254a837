// list_received_invoices: GET /api/v1/received-invoices — documents other companies issued against the company's tax
// id, as already collected (no authorizer call).
import { z } from 'zod';
import { listTool } from './list-tool.js';
import { documentType } from './tool-context.js';

export const registerListReceivedInvoices = listTool({
  name: 'list_received_invoices',
  title: 'List received invoices',
  description: 'Invoices other companies issued against this company, as collected from the authorizers (newest first).',
  path: 'api/v1/received-invoices',
  filters: {
    document_type: documentType.optional(),
    issuer_tax_id: z.string().optional().describe('Only those of this issuer (CNPJ or CPF, digits only).'),
    situation: z.enum(['authorized', 'cancelled', 'denied']).optional(),
  },
  row: 'received invoice',
});
