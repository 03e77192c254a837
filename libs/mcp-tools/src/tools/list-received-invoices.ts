// list_received_invoices: GET /api/v1/received-invoices — documents other companies issued against the company's tax
// id, as already collected (no authorizer call).
import { z } from 'zod';
import { apiResult } from '../tool-result.js';
import { documentType, READS_ONLY, type ToolRegistration } from './tool-context.js';
import { pageArguments, pageOutput } from './list-invoices.js';

export const registerListReceivedInvoices: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'list_received_invoices',
    {
      title: 'List received invoices',
      description: 'Invoices other companies issued against this company, as collected from the authorizers (newest first).',
      inputSchema: z.object({
        document_type: documentType.optional(),
        issuer_tax_id: z.string().optional().describe('Only those of this issuer (CNPJ or CPF, digits only).'),
        situation: z.enum(['authorized', 'cancelled', 'denied']).optional(),
        ...pageArguments,
      }),
      outputSchema: pageOutput,
      annotations: READS_ONLY,
    },
    async (query) =>
      apiResult(await api.request('GET', 'api/v1/received-invoices', { query }), (body) => {
        const rows = Array.isArray(body['data']) ? body['data'].length : 0;
        return `${rows} received invoice(s) on this page, ${String(body['total'] ?? '?')} in total`;
      }),
  );
};
