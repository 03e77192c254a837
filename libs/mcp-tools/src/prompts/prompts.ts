// The 8 prompts of SPEC.md. Each one tells the agent to read the data back (validate, consult or list) and show it to
// the person before anything that changes a document, and to ask for an explicit confirmation where SPEC.md says so.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const CONFIRM = 'Ask the person to confirm explicitly ("yes") and wait for the answer; without it, do nothing.';

function say(text: string): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text } }] };
}

const optional = (description: string) => z.string().optional().describe(description);

/** NF-e and NFS-e are issued by one procedure (build, validate, show, confirm, issue); each says what differs. */
function issueProcedure(
  document: { name: 'NF-e' | 'NFS-e'; type: 'nfe' | 'nfse'; build: string; shown: string },
  args: { client_name?: string | undefined; tax_id?: string | undefined },
  sold: string,
): GetPromptResult {
  return say(
    `Issue an ${document.name} (document_type "${document.type}") for ${args.client_name ?? 'the recipient the person names'}` +
      `${args.tax_id ? ` (tax id ${args.tax_id})` : ''}${sold}.\n` +
      `1. ${document.build}.\n` +
      '2. Call validate_invoice_payload and fix every error it returns.\n' +
      `3. Show the person the recipient, each item, ${document.shown} and the total exactly as they will be sent.\n` +
      `4. ${CONFIRM}\n` +
      '5. Call issue_invoice with a fresh idempotency_key (reuse it if you must retry), then report the status and access key.',
  );
}

const NFSE = {
  name: 'NFS-e',
  type: 'nfse',
  build:
    'Build the request; ask for any missing required field (client_name, tax_id, items with description and amount; a service_code ' +
    'only when not the company’s default; ibs_cbs for a normal-regime company)',
  shown: 'the amounts',
} as const;

const NFE = {
  name: 'NF-e',
  type: 'nfe',
  build:
    'Build the request: recipient and address, each item with unit_price or amount and product { quantity, unit, br { ncm, cfop, ' +
    'tax } }; payment when not the whole total in one',
  shown: 'the taxes',
} as const;

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'issue_nfse',
    {
      title: 'Issue a service invoice (NFS-e)',
      description: 'Gathers the recipient and the services, validates, shows, then issues one NFS-e.',
      argsSchema: {
        client_name: optional('Recipient name'),
        tax_id: optional('Recipient CPF or CNPJ'),
        services: optional('What was provided'),
      },
    },
    (args) => issueProcedure(NFSE, args, args.services ? `, services: ${args.services}` : ''),
  );

  server.registerPrompt(
    'issue_nfe',
    {
      title: 'Issue a goods invoice (NF-e)',
      description: 'Gathers the recipient, products and taxes, validates, shows, then issues one NF-e.',
      argsSchema: {
        client_name: optional('Recipient name'),
        tax_id: optional('Recipient CPF or CNPJ'),
        products: optional('What was sold'),
      },
    },
    (args) => issueProcedure(NFE, args, args.products ? `, products: ${args.products}` : ''),
  );

  server.registerPrompt(
    'recent_invoices',
    {
      title: 'Recent invoices',
      description: 'Lists the latest invoices and summarizes them.',
      argsSchema: { status: optional('issued, rejected, cancelled, processing or failed'), document_type: optional('nfe or nfse') },
    },
    (args) =>
      say(
        `Call list_invoices${args.status ? ` with status "${args.status}"` : ''}${args.document_type ? ` and document_type "${args.document_type}"` : ''}. ` +
          'Show a table: date, type, number, amount, status and access key. Point out rejected or failed ones and offer to ' +
          'diagnose them; change nothing.',
      ),
  );

  server.registerPrompt(
    'diagnose_rejection',
    {
      title: 'Diagnose a rejection',
      description: 'Reads the submission history of a rejected attempt and explains what to fix.',
      argsSchema: { invoice_id: z.string().describe('The rejected attempt’s invoice_id') },
    },
    (args) =>
      say(
        `Call get_invoice_submissions for invoice ${args.invoice_id}. Quote the authorizer’s status code and message, explain the ` +
          'cause in plain words and which request field to change. If a corrected request should be issued, validate it with ' +
          'validate_invoice_payload and show it; reissue_invoice (same items) or issue_invoice only after the person confirms. ' +
          CONFIRM,
      ),
  );

  server.registerPrompt(
    'inspect_invoice',
    {
      title: 'Inspect an invoice',
      description: 'Consults one invoice at the authorizer and shows its state, amendments and PDF.',
      argsSchema: { access_key: z.string().describe('Access key or invoice_id'), document_type: z.string().describe('nfe or nfse') },
    },
    (args) =>
      say(
        `Call consult_invoice with access_key ${args.access_key} and document_type ${args.document_type}. Show the stored status, ` +
          'what the authorizer says now, the amendments (cancellation, correction letters) and the amount. Offer get_invoice_pdf ' +
          'and get_invoice_submissions; change nothing.',
      ),
  );

  server.registerPrompt(
    'correct_nfe',
    {
      title: 'Correction letter (CC-e) on an NF-e',
      description: 'Corrects wording on an NF-e; never values.',
      argsSchema: { access_key: z.string().describe('The NF-e access key'), correction: optional('What must be corrected') },
    },
    (args) =>
      say(
        `Call consult_invoice with access_key ${args.access_key} and document_type nfe, and show the invoice. A correction letter ` +
          'corrects wording only: never amounts, quantities, taxes, the recipient’s identity, or dates; refuse those and suggest ' +
          'cancelling and issuing again instead. Write the full corrected text (15 to 1000 characters; each letter replaces the ' +
          `previous one)${args.correction ? ` for: ${args.correction}` : ''}, show it, ${CONFIRM} Then call correct_invoice.`,
      ),
  );

  server.registerPrompt(
    'manifest_received',
    {
      title: 'Answer a received NF-e',
      description: 'Shows a received invoice and files the company’s position on it.',
      argsSchema: { access_key: optional('The received NF-e access key') },
    },
    (args) =>
      say(
        `Call list_received_invoices${args.access_key ? ` and find ${args.access_key}` : ' and let the person pick one'}. Show the ` +
          'issuer, date, amount and situation. Explain the four codes: 210210 awareness (within 10 days; it settles nothing and obliges a conclusive code afterwards), 210200 ' +
          'confirmation (the issuer can no longer cancel), 210220 unknown operation, 210240 operation not performed (needs a ' +
          '15–255 character justification); the conclusive ones are due within 90 days. Ask which one; show what will be filed; ' +
          `${CONFIRM} Then call manifest_received_invoice.`,
      ),
  );

  server.registerPrompt(
    'cancel_invoice_prompt',
    {
      title: 'Cancel an invoice (with confirmation)',
      description: 'Consults the invoice, shows it, asks for confirmation, then cancels it.',
      argsSchema: {
        access_key: z.string().describe('The access key'),
        document_type: z.string().describe('nfe or nfse'),
        reason: optional('Why (15 to 255 characters)'),
      },
    },
    (args) =>
      say(
        `Call consult_invoice with access_key ${args.access_key} and document_type ${args.document_type}. Show its number, ` +
          'amount, status and authorization date (the recipient is in the authorizer’s XML the consult returns). Only an issued document inside the cancellation window can be cancelled, and a ' +
          `cancellation cannot be undone. Reason: ${args.reason ?? 'ask the person (15 to 255 characters)'}. ${CONFIRM} ` +
          'Then call cancel_invoice with a fresh idempotency_key and report the result.',
      ),
  );
}
