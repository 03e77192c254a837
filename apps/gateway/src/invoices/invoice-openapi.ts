// OpenAPI pieces of the invoice routes: the request body is the fiscal-model zod schema itself (z.toJSONSchema), so the
// document cannot drift from validation; responses are described here with examples. Request and response examples
// go together by name (invoice-examples.ts says how the example test uses that).
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader } from '@nestjs/swagger';
import { invoiceRequestJsonSchema, NFE_REQUEST_EXAMPLE, NFSE_REQUEST_EXAMPLE } from '@talao/fiscal-model';
import {
  EXAMPLE_IDS,
  errorExample,
  fieldErrorExample,
  NFE_RECORD_EXAMPLE,
  NFSE_RECORD_EXAMPLE,
  PROCESSING_RECORD_EXAMPLE,
  REISSUED_RECORD_EXAMPLE,
} from './invoice-examples.js';
import { errorEnvelope, json, Respond } from '../openapi/decorators.js';
import { nullable } from '../openapi/schemas.js';
import { invoiceSchema } from './invoice-schemas.js';

const { $schema: _dialect, ...requestSchema } = invoiceRequestJsonSchema();

/** Request-body examples: fiscal-model's, which the test samples are copies of. */
export const NFE_EXAMPLE = NFE_REQUEST_EXAMPLE;
export const NFSE_EXAMPLE = NFSE_REQUEST_EXAMPLE;

type Example = Record<string, unknown>;
const firstItemOf = (example: Example) => (example['items'] as Example[])[0]!;

/** Request examples of POST /invoices, by name; each has a response example of the same name (invoice-examples.ts). */
export const INVOICE_REQUEST_EXAMPLES = {
  nfe: { summary: 'NF-e, one item (ICMS, PIS, COFINS, IBS/CBS)', value: NFE_EXAMPLE },
  nfse: { summary: 'NFS-e, one service', value: NFSE_EXAMPLE },
  item_total_mismatch: {
    summary: 'amount disagrees with quantity × unit_price (422, ITEM_TOTAL_MISMATCH)',
    value: { ...NFE_EXAMPLE, items: [{ ...firstItemOf(NFE_EXAMPLE), amount: '10.00' }] },
  },
  unknown_field: { summary: 'A field the request does not define (422, FIELD_UNKNOWN)', value: { ...NFE_EXAMPLE, discout: '5.00' } },
  not_implemented: { summary: 'A fiscal document the service does not sign (501)', value: { ...NFE_EXAMPLE, document_type: 'nfce' } },
};

const authorizerErrorSchema = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  description,
  properties: {
    detail: {
      type: 'object',
      required: ['message', 'invoice_id'],
      properties: {
        message: { type: 'string', description: "The authorizer's own message" },
        invoice_id: {
          type: 'string',
          format: 'uuid',
          description:
            'Look the attempt up with GET /invoices/{invoice_id}/submissions; reissue it with POST /invoices/{invoice_id}/reissue',
        },
        code: nullable('string', { description: 'Additive: cStat (NF-e) or the national error code (NFS-e)' }),
        ...extra,
      },
    },
    request_id: { type: 'string' },
  },
});

export const IdempotencyKeyHeader = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 characters, scoped to your company and environment, kept 24 h. The same key with the same body answers the first ' +
      'response again (same status and body, header `Idempotent-Replayed: true`; nothing issued or charged twice); another body → 422; ' +
      'while the first call runs → 409. One key per business event, not per HTTP request.',
  });

export const InvoiceRequestBody = () =>
  ApiBody({ schema: requestSchema as never, examples: INVOICE_REQUEST_EXAMPLES, description: 'The sale to issue (NF-e or NFS-e)' });

const REISSUE_409 = {
  summary: 'The attempt was reissued already: detail names the invoice that replaced it',
  value: errorExample({
    message: `Invoice ${EXAMPLE_IDS.rejectedInvoiceId} was already reissued as ${EXAMPLE_IDS.replacementInvoiceId}; an attempt is reissued once (reissue ${EXAMPLE_IDS.replacementInvoiceId} if it failed too)`,
    invoice_id: EXAMPLE_IDS.rejectedInvoiceId,
    replaced_by: EXAMPLE_IDS.replacementInvoiceId,
  }),
};

const NOT_IMPLEMENTED = Respond({
  status: 501,
  description:
    'Not implemented: signing for that document type is not implemented (a Brazilian fiscal document other than nfe and nfse: ' +
    'nfce, cte, cteos, mdfe, nf3e, nfcom, bpe). Any other unknown document_type is a 422',
  content: json(errorEnvelope, {
    not_implemented: {
      summary: 'NFC-e',
      value: errorExample(
        'Signing the NFC-e (consumer invoice, model 65) (document_type nfce) is not implemented; this API issues nfe and nfse',
      ),
    },
  }),
});

/** The outcomes of POST /invoices and reissue, all documented; `examples` of 201 and the errors by request example name. */
export const IssuanceResponses = (kind: 'create' | 'reissue') =>
  applyDecorators(
    ...(kind === 'create' ? [NOT_IMPLEMENTED] : []),
    Respond({
      status: 201,
      description: 'Authorized: the invoice record (access_key, status `issued`, protocol, amount)',
      content: json(
        invoiceSchema,
        kind === 'create'
          ? {
              nfe: { summary: 'NF-e authorized', value: NFE_RECORD_EXAMPLE },
              nfse: { summary: 'NFS-e authorized', value: NFSE_RECORD_EXAMPLE },
            }
          : { rejected: { summary: 'The reissue of a rejected attempt, authorized', value: REISSUED_RECORD_EXAMPLE } },
      ),
    }),
    Respond({
      status: 202,
      description:
        'Additive. Still with the authorizer after the wait window (ISSUE_WAIT_MS): the record with status `processing`. The outcome arrives by ' +
        'webhook (invoice.authorized / invoice.rejected) or by GET on the `Location` header.',
      content: json(invoiceSchema, { processing: { summary: 'Outcome pending', value: PROCESSING_RECORD_EXAMPLE } }),
      headers: { Location: { description: 'GET here for the invoice and the authorizer’s view', schema: { type: 'string' } } },
    }),
    Respond({
      status: 400,
      description:
        'Invalid configuration: the company cannot issue yet. `detail` is a string naming what is missing or invalid (certificate, state registration, address, tax regime, …)',
      content: json(errorEnvelope, {
        not_configured: {
          summary: 'No certificate',
          value: errorExample('The company is not ready to issue: missing certificate (no A1 certificate uploaded)'),
        },
      }),
    }),
    Respond({
      status: 402,
      description:
        'Quota reached: the production quota of the month is used up and the plan has no overage price (homologation is free and unlimited)',
      content: json(errorEnvelope, {
        quota_reached: {
          summary: 'Trial plan used up',
          value: errorExample(
            "The plan's production quota of 50 documents for 2026-11 is used up (50 used or in flight) and the plan has no overage price",
          ),
        },
      }),
    }),
    Respond({
      status: 409,
      description:
        kind === 'create'
          ? 'Operation conflict: the number given is already used; the same Idempotency-Key is still in progress'
          : 'Operation conflict: the invoice is not rejected or failed; it was reissued already (`detail` object naming `replaced_by`); the same Idempotency-Key is still in progress',
      content: json(
        errorEnvelope,
        kind === 'create'
          ? { number_taken: { summary: 'Number already used', value: errorExample('Number 7 of series 1 is already used') } }
          : {
              already_reissued: REISSUE_409,
              not_reissuable: {
                summary: 'An issued invoice',
                value: errorExample('Only rejected or failed invoices can be reissued; this one is issued'),
              },
            },
      ),
    }),
    Respond({
      status: 422,
      description:
        'Validation error: `detail` is the first field error `{ code, field, message, expected, received }`, `errors` lists all (every item code — ' +
        'ITEM_TOTAL_MISMATCH, ITEM_AMOUNT_MISSING, ITEM_DISCOUNT_EXCEEDS_GROSS, ITEM_PRECISION_UNSUPPORTED and the others — is a 422); ' +
        'or the same Idempotency-Key with a different body, or an Idempotency-Key over 255 characters (`detail` a string)',
      content: json(
        errorEnvelope,
        kind === 'create'
          ? {
              item_total_mismatch: {
                summary: 'ITEM_TOTAL_MISMATCH',
                value: fieldErrorExample({
                  code: 'ITEM_TOTAL_MISMATCH',
                  field: 'items[0].amount',
                  message: 'quantity × unit_price = 99.8 rounds to 99.80, not 10.00',
                  expected: '99.80',
                  received: '10.00',
                }),
              },
              unknown_field: {
                summary: 'FIELD_UNKNOWN',
                value: fieldErrorExample({
                  code: 'FIELD_UNKNOWN',
                  field: 'discout',
                  message: 'Unknown field "discout"',
                  expected: 'no such field',
                  received: '5.00',
                }),
              },
            }
          : {
              idempotency_mismatch: {
                summary: 'Key reused with another body',
                value: errorExample('Idempotency-Key was already used with a different request body; use a new key for a new request'),
              },
            },
      ),
    }),
    Respond({
      status: 502,
      description:
        "Authorizer rejected: `detail.message` is the authorizer's own message, `detail.invoice_id` the attempt (see its submissions; reissue it). The number stays a gap",
      content: json(authorizerErrorSchema('Rejected'), {
        rejected_by_authorizer: {
          summary: 'SEFAZ rejection 778',
          value: errorExample({ message: 'Rejeicao: Informado NCM inexistente', code: '778', invoice_id: EXAMPLE_IDS.rejectedInvoiceId }),
        },
      }),
    }),
    Respond({
      status: 503,
      description:
        'Additive. The authorizer stayed unavailable through every retry: the attempt is `failed` (`detail.status`) and can be reissued',
      content: json(authorizerErrorSchema('Failed', { status: { const: 'failed' } }), {
        failed: {
          summary: 'Authorizer unavailable',
          value: errorExample({
            message: 'SEFAZ unavailable: connect ECONNREFUSED',
            code: null,
            invoice_id: EXAMPLE_IDS.rejectedInvoiceId,
            status: 'failed',
          }),
        },
      }),
    }),
  );
