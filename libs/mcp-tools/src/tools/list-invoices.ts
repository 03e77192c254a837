// list_invoices: GET /api/v1/invoices, newest first, paged.
import { z } from 'zod';
import { listTool } from './list-tool.js';
import { documentType } from './tool-context.js';

export const registerListInvoices = listTool({
  name: 'list_invoices',
  title: 'List invoices',
  description: 'The company’s invoices in the API key’s environment, newest first, optionally filtered by type and status.',
  path: 'api/v1/invoices',
  filters: {
    document_type: documentType.optional(),
    status: z.enum(['issued', 'rejected', 'cancelled', 'processing', 'failed']).optional(),
  },
  row: 'invoice',
});
