// cancel_invoice: POST /api/v1/invoices/{access_key}/cancel, the document type in the body.
import { z } from 'zod';
import { segment } from '../api-client.js';
import { apiResult } from '../tool-result.js';
import {
  accessKey,
  CHANGES_A_DOCUMENT,
  documentType,
  idempotencyKey,
  invoiceOutput,
  invoiceSummary,
  reason,
  type ToolRegistration,
} from './tool-context.js';

export const registerCancelInvoice: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'cancel_invoice',
    {
      title: 'Cancel an issued NF-e or NFS-e',
      description:
        'Files the cancellation event at the authorizer. Irreversible; only an issued document inside the cancellation window. ' +
        'Consult the invoice first and ask the person to confirm.',
      inputSchema: z.object({ access_key: accessKey, document_type: documentType, reason, idempotency_key: idempotencyKey }),
      outputSchema: invoiceOutput,
      annotations: CHANGES_A_DOCUMENT,
    },
    async ({ access_key: key, document_type, reason: text, idempotency_key: idempotency }) =>
      apiResult(
        await api.request('POST', `api/v1/invoices/${segment(key)}/cancel`, {
          body: { reason: text, document_type },
          headers: { 'idempotency-key': idempotency },
        }),
        invoiceSummary,
      ),
  );
};
