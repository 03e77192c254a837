// validate_invoice_payload: the API's own request validation (@talao/fiscal-model), run here, never calling the API.
// Of the issuing company the rules read only its state (interstate operations) and tax regime (CST vs CSOSN, IBS/CBS):
// the agent may state both; otherwise SP and Simples Nacional are assumed, and the result says so.
import { type IssuerProfile, type TaxRegime, validateInvoiceRequest } from '@talao/fiscal-model';
import { z } from 'zod';
import { invoiceRequestArguments } from './issue-invoice.js';
import { apiOutput, type ToolRegistration } from './tool-context.js';

const REGIMES = ['simples_nacional', 'simples_nacional_excess', 'normal', 'mei'] as const satisfies readonly TaxRegime[];

/** The issuer facts the rules read; the other fields are placeholders the validation never looks at. */
function assumedIssuer(state: string, taxRegime: TaxRegime): IssuerProfile {
  return {
    taxId: '00000000000000',
    legalName: 'issuer',
    taxRegime,
    address: { street: '-', number: '-', district: '-', cityCode: '0000000', state, postalCode: '00000000' },
  };
}

export const registerValidateInvoicePayload: ToolRegistration = (server) => {
  server.registerTool(
    'validate_invoice_payload',
    {
      title: 'Validate an invoice request without issuing it',
      description:
        'Runs the same validation as the REST API (structure, recipient, items, taxes, totals) and returns every error with its code, ' +
        'field and expected value. Never calls the API, needs no scope. issuer_state and issuer_tax_regime (default SP, ' +
        'simples_nacional) stand for the issuing company’s, which the API reads from its record.',
      inputSchema: z.looseObject({
        ...invoiceRequestArguments,
        client_name: invoiceRequestArguments.client_name.optional(),
        tax_id: invoiceRequestArguments.tax_id.optional(),
        issuer_state: z.string().length(2).optional().describe('The issuing company’s state (UF), default SP.'),
        issuer_tax_regime: z.enum(REGIMES).optional().describe('The issuing company’s tax regime, default simples_nacional.'),
      }),
      outputSchema: apiOutput.omit({ http_status: true }).extend({
        valid: z.boolean(),
        errors: z.array(z.record(z.string(), z.unknown())),
        assumed_issuer: z.object({ state: z.string(), tax_regime: z.string() }),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ issuer_state: state = 'SP', issuer_tax_regime: regime = 'simples_nacional', ...body }) => {
      const result = validateInvoiceRequest(body, assumedIssuer(state.toUpperCase(), regime));
      const errors = result.ok ? [] : result.errors.map((error) => ({ ...error }) as Record<string, unknown>);
      const assumed = { state: state.toUpperCase(), tax_regime: regime };
      const text = result.ok
        ? 'The request is valid.'
        : `${errors.length} error(s): ${errors.map((e) => `${String(e['field'] || '(body)')}: ${String(e['message'])}`).join('; ')}`;
      return { content: [{ type: 'text', text }], structuredContent: { valid: result.ok, errors, assumed_issuer: assumed } };
    },
  );
};
