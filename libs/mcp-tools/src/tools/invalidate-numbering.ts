// invalidate_numbering: POST /api/v1/invoices/invalidations (an NF-e numbering range never used).
import { z } from 'zod';
import { apiOutput, CHANGES_A_DOCUMENT, idempotencyKey, reason, type ToolRegistration } from './tool-context.js';
import { apiResult } from '../tool-result.js';

const number = (what: string) => z.number().int().min(1).max(999_999_999).describe(what);

export const registerInvalidateNumbering: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'invalidate_numbering',
    {
      title: 'Invalidate an NF-e numbering range',
      description:
        'Tells SEFAZ that the numbers from number_start to number_end (inclusive) of the series will never be used. Irreversible. ' +
        'List the invoices first to show the range holds no issued document.',
      inputSchema: z.object({
        series: z.number().int().min(0).max(999).describe('The series, 0–999.'),
        number_start: number('First number of the range.'),
        number_end: number('Last number of the range (inclusive).'),
        reason,
        idempotency_key: idempotencyKey,
      }),
      outputSchema: apiOutput,
      annotations: CHANGES_A_DOCUMENT,
    },
    async ({ idempotency_key: idempotency, ...args }) =>
      apiResult(
        await api.request('POST', 'api/v1/invoices/invalidations', { body: args, headers: { 'idempotency-key': idempotency } }),
        (body) =>
          `Numbering ${String(args.number_start)}–${String(args.number_end)} of series ${String(args.series)}: ${String(body['status'] ?? '?')}`,
      ),
  );
};
