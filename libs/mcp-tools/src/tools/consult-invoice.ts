// consult_invoice: GET /api/v1/invoices/{access_key}?document_type= — the stored record and the authorizer's view now.
import { z } from 'zod';
import { segment } from '../api-client.js';
import { apiResult } from '../tool-result.js';
import { accessKey, apiOutput, documentType, READS_ONLY, type ToolRegistration } from './tool-context.js';

export const registerConsultInvoice: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'consult_invoice',
    {
      title: 'Consult one invoice',
      description:
        'The stored invoice record, what the authorizer says about it now, and its amendments (cancellation, correction letters).',
      inputSchema: z.object({ access_key: accessKey, document_type: documentType }),
      outputSchema: apiOutput.extend({
        invoice: z.record(z.string(), z.unknown()).optional(),
        authorizer: z.record(z.string(), z.unknown()).optional(),
        amendments: z.array(z.unknown()).optional(),
      }),
      annotations: READS_ONLY,
    },
    async ({ access_key: key, document_type }) =>
      apiResult(await api.request('GET', `api/v1/invoices/${segment(key)}`, { query: { document_type } }), (body) => {
        const invoice = (body['invoice'] ?? {}) as Record<string, unknown>;
        return `Invoice ${String(invoice['invoice_id'] ?? key)} is ${String(invoice['status'] ?? '?')}`;
      }),
  );
};
