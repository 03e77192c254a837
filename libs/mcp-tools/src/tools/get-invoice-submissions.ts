// get_invoice_submissions: GET /api/v1/invoices/{invoice_id}/submissions — every exchange with the authorizer.
import { z } from 'zod';
import { segment } from '../api-client.js';
import { apiResult } from '../tool-result.js';
import { apiOutput, invoiceId, READS_ONLY, type ToolRegistration } from './tool-context.js';

export const registerGetInvoiceSubmissions: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'get_invoice_submissions',
    {
      title: 'Submission history of an invoice',
      description:
        'Every exchange with the authorizer for the attempt (request and response as transmitted, status codes, messages): ' +
        'what to read to explain a rejection.',
      inputSchema: z.object({ invoice_id: invoiceId }),
      outputSchema: apiOutput.extend({ data: z.array(z.record(z.string(), z.unknown())).optional() }),
      annotations: READS_ONLY,
    },
    async ({ invoice_id: id }) =>
      apiResult(await api.request('GET', `api/v1/invoices/${segment(id)}/submissions`), (body) => {
        const rows = Array.isArray(body['data']) ? body['data'].length : 0;
        return `${rows} submission(s) for invoice ${id}`;
      }),
  );
};
