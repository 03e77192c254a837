// issue_invoice: POST /api/v1/invoices with the invoice request as the body. The API validates with the same schema as
// validate_invoice_payload and answers every field error (422) in the tool error.
import { z } from 'zod';
import { apiResult } from '../tool-result.js';
import { CHANGES_A_DOCUMENT, documentType, idempotencyKey, invoiceOutput, invoiceSummary, type ToolRegistration } from './tool-context.js';

export const invoiceRequestArguments = {
  document_type: documentType,
  client_name: z.string().describe('Recipient legal name, 1–120 characters (NF-e: 2–60).'),
  tax_id: z.string().describe('Recipient CPF (11 digits) or CNPJ (14 characters), no punctuation.'),
  items: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .describe(
      'Lines (1–990) in the REST shape: description; unit_price and/or amount (decimal strings). NF-e: product { quantity, unit, ' +
        'barcode?, discount?, freight?, insurance?, other_expenses?, br { ncm, cfop, cest?, tax { icms, pis, cofins, ipi? }, ibs_cbs? } }. ' +
        'NFS-e: service_code? (default the company’s), tax_retained?, observations?, discount?, ibs_cbs?. validate_invoice_payload checks them.',
    ),
};

export const registerIssueInvoice: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'issue_invoice',
    {
      title: 'Issue an NF-e or NFS-e',
      description:
        'Issues a document (consumes a number and, in production, credit) and waits for the authorizer: authorized (201), pending (202) ' +
        'or rejected (tool error with the authorizer’s message). Every other field of the REST body (recipient_address, series, ' +
        'number, payment, …) is accepted as is. Run validate_invoice_payload first and show the person what will be issued.',
      inputSchema: z.looseObject({ ...invoiceRequestArguments, idempotency_key: idempotencyKey }),
      outputSchema: invoiceOutput,
      annotations: CHANGES_A_DOCUMENT,
    },
    async ({ idempotency_key: key, ...body }) =>
      apiResult(await api.request('POST', 'api/v1/invoices', { body, headers: { 'idempotency-key': key } }), invoiceSummary),
  );
};
