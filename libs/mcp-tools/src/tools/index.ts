// The 12 tools of SPEC.md's table, one file each.
import { registerCancelInvoice } from './cancel-invoice.js';
import { registerConsultInvoice } from './consult-invoice.js';
import { registerCorrectInvoice } from './correct-invoice.js';
import { registerGetInvoicePdf } from './get-invoice-pdf.js';
import { registerGetInvoiceSubmissions } from './get-invoice-submissions.js';
import { registerInvalidateNumbering } from './invalidate-numbering.js';
import { registerIssueInvoice } from './issue-invoice.js';
import { registerListInvoices } from './list-invoices.js';
import { registerListReceivedInvoices } from './list-received-invoices.js';
import { registerManifestReceivedInvoice } from './manifest-received-invoice.js';
import { registerReissueInvoice } from './reissue-invoice.js';
import type { ToolRegistration } from './tool-context.js';
import { registerValidateInvoicePayload } from './validate-invoice-payload.js';

export const TOOL_REGISTRATIONS: readonly ToolRegistration[] = [
  registerIssueInvoice,
  registerReissueInvoice,
  registerCancelInvoice,
  registerCorrectInvoice,
  registerInvalidateNumbering,
  registerManifestReceivedInvoice,
  registerConsultInvoice,
  registerListInvoices,
  registerGetInvoicePdf,
  registerGetInvoiceSubmissions,
  registerListReceivedInvoices,
  registerValidateInvoicePayload,
];
