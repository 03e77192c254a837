// reissue_invoice: POST /api/v1/invoices/{invoice_id}/reissue (a rejected or failed attempt, once).
import { z } from 'zod';
import { segment } from '../api-client.js';
import { apiResult } from '../tool-result.js';
import { CHANGES_A_DOCUMENT, idempotencyKey, invoiceId, invoiceOutput, invoiceSummary, type ToolRegistration } from './tool-context.js';

export const registerReissueInvoice: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'reissue_invoice',
    {
      title: 'Reissue a rejected or failed attempt',
      description:
        'Issues the stored items again under a new number (charged like a new issuance). An attempt is reissued once; a second ' +
        'reissue is refused naming the invoice that replaced it. Consult the attempt (get_invoice_submissions) first.',
      inputSchema: z.object({ invoice_id: invoiceId, idempotency_key: idempotencyKey }),
      outputSchema: invoiceOutput,
      annotations: CHANGES_A_DOCUMENT,
    },
    async ({ invoice_id: id, idempotency_key: idempotency }) =>
      apiResult(
        await api.request('POST', `api/v1/invoices/${segment(id)}/reissue`, { headers: { 'idempotency-key': idempotency } }),
        invoiceSummary,
      ),
  );
};
