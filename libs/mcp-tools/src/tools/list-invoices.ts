// list_invoices: GET /api/v1/invoices, newest first, paged.
import { z } from 'zod';
import { apiResult } from '../tool-result.js';
import { apiOutput, documentType, READS_ONLY, type ToolRegistration } from './tool-context.js';

export const pageArguments = {
  page: z.number().int().min(1).optional().describe('Page number from 1 (default 1).'),
  page_size: z.number().int().min(1).max(100).optional().describe('Rows per page, 1–100 (default 20).'),
};

export const pageOutput = apiOutput.extend({ total: z.number().optional(), data: z.array(z.record(z.string(), z.unknown())).optional() });

export const registerListInvoices: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'list_invoices',
    {
      title: 'List invoices',
      description: 'The company’s invoices in the API key’s environment, newest first, optionally filtered by type and status.',
      inputSchema: z.object({
        document_type: documentType.optional(),
        status: z.enum(['issued', 'rejected', 'cancelled', 'processing', 'failed']).optional(),
        ...pageArguments,
      }),
      outputSchema: pageOutput,
      annotations: READS_ONLY,
    },
    async (query) =>
      apiResult(await api.request('GET', 'api/v1/invoices', { query }), (body) => {
        const rows = Array.isArray(body['data']) ? body['data'].length : 0;
        return `${rows} invoice(s) on this page, ${String(body['total'] ?? '?')} in total`;
      }),
  );
};
