// What the list tools share: a read-only GET of one of the API's paged lists, its filters plus the page arguments as
// the tool's arguments, the page as its output and one line counting the rows.
import { z } from 'zod';
import { apiResult } from '../tool-result.js';
import { apiOutput, READS_ONLY, type ToolRegistration } from './tool-context.js';

export const pageArguments = {
  page: z.number().int().min(1).optional().describe('Page number from 1 (default 1).'),
  page_size: z.number().int().min(1).max(100).optional().describe('Rows per page, 1–100 (default 20).'),
};

export const pageOutput = apiOutput.extend({ total: z.number().optional(), data: z.array(z.record(z.string(), z.unknown())).optional() });

export interface ListTool {
  name: string;
  title: string;
  description: string;
  /** The API path of the list, e.g. `api/v1/invoices`. */
  path: string;
  /** The list's query filters, besides the page. */
  filters: z.ZodRawShape;
  /** What one row is, in the summary line ("3 invoice(s) on this page"). */
  row: string;
}

export function listTool(list: ListTool): ToolRegistration {
  return (server, { api }) => {
    server.registerTool(
      list.name,
      {
        title: list.title,
        description: list.description,
        inputSchema: z.object({ ...list.filters, ...pageArguments }),
        outputSchema: pageOutput,
        annotations: READS_ONLY,
      },
      async (query) =>
        apiResult(await api.request('GET', list.path, { query }), (body) => {
          const rows = Array.isArray(body['data']) ? body['data'].length : 0;
          return `${rows} ${list.row}(s) on this page, ${String(body['total'] ?? '?')} in total`;
        }),
    );
  };
}
