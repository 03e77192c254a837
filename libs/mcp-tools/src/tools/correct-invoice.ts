// correct_invoice: POST /api/v1/invoices/{access_key}/correction (CC-e, NF-e only).
import { z } from 'zod';
import { segment } from '../api-client.js';
import { apiResult } from '../tool-result.js';
import {
  accessKey,
  CHANGES_A_DOCUMENT,
  eventText,
  idempotencyKey,
  invoiceOutput,
  invoiceSummary,
  type ToolRegistration,
} from './tool-context.js';

export const registerCorrectInvoice: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'correct_invoice',
    {
      title: 'File a correction letter (CC-e) on an NF-e',
      description:
        'Corrects wording only (never amounts, taxes, recipient identity or dates: the law forbids it). Each letter replaces the ' +
        'previous one; 20 at most. Show the person the text before filing.',
      inputSchema: z.object({
        access_key: accessKey,
        correction: eventText(15, 1000, 'The corrected wording'),
        idempotency_key: idempotencyKey,
      }),
      outputSchema: invoiceOutput,
      annotations: CHANGES_A_DOCUMENT,
    },
    async ({ access_key: key, correction, idempotency_key: idempotency }) =>
      apiResult(
        await api.request('POST', `api/v1/invoices/${segment(key)}/correction`, {
          body: { correction },
          headers: { 'idempotency-key': idempotency },
        }),
        invoiceSummary,
      ),
  );
};
