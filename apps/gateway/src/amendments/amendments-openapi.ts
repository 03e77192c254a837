// OpenAPI pieces of the amendment routes. Request and response examples go together by name (the examples test sends
// each named request and expects the status documented under the same name; placeholders stand for the caller's
// own documents, see ../invoices/invoice-examples.ts).
import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { AccessKeyParameter, InvoiceNotFound } from '../invoices/document-openapi.js';
import { EXAMPLE_IDS, errorExample } from '../invoices/invoice-examples.js';
import { errorEnvelope, json, Respond } from '../openapi/decorators.js';
import { nullable } from '../invoices/invoice-schemas.js';

/** The fields of a request filed with the authorizer (an amendment, an invalidation): where it stands, and its answer. */
export const filedProperties = (protocolDescription: string) => ({
  status: { type: 'string', enum: ['pending', 'registered', 'rejected'] },
  protocol: nullable('string', { description: protocolDescription }),
  status_code: nullable('string'),
  status_message: nullable('string'),
  registered_at: nullable('string', { format: 'date-time' }),
  created_at: { type: 'string', format: 'date-time' },
});

export const amendmentSchema = {
  type: 'object',
  properties: {
    amendment_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: ['cancellation', 'correction'] },
    sequence: { type: 'integer', description: 'Cancellation: the try (1, 2 after a refusal); correction: nSeqEvento 1..20' },
    text: { type: 'string', description: 'The reason (cancellation) or the correction text, as sent' },
    ...filedProperties('The event’s protocol at the authorizer'),
  },
};

const cancellationResultSchema = {
  type: 'object',
  properties: {
    invoice_id: { type: 'string', format: 'uuid' },
    document_type: { type: 'string', enum: ['nfe', 'nfse'] },
    access_key: { type: 'string' },
    status: { type: 'string', description: '`cancelled` once registered; `issued` while pending' },
    cancellation: amendmentSchema,
  },
};

const REASON = 'Pedido cancelado pelo cliente antes da entrega';

const NO_SUCH_DOCUMENT = 'No document with that key belongs to the company behind the key (in the key’s environment)';

/** A filed request as a 202 shows it: sent, not yet answered. */
export const pending = <A extends object>(filed: A) => ({
  ...filed,
  status: 'pending',
  protocol: null,
  status_code: null,
  status_message: null,
  registered_at: null,
});

/** 202: still with the authorizer after AMENDMENT_WAIT_MS; `value` is the answer then, its request `pending`. */
export const OutcomePending = (description: string, schema: object, value: object) =>
  Respond({ status: 202, description, content: json(schema, { pending: { summary: 'Outcome pending', value } }) });

/** The `{access_key}` of an amendment route: each named request on an issued NF-e of yours, `unknown` on none. */
const AmendedKeyParameter = (description: string, ...issuedNames: string[]) =>
  AccessKeyParameter(description, {
    ...Object.fromEntries(issuedNames.map((name) => [name, { summary: 'An issued NF-e of yours', value: EXAMPLE_IDS.issuedAccessKey }])),
    unknown: { summary: 'No such document of yours', value: EXAMPLE_IDS.unknownAccessKey },
  });

/** 502: the authorizer refused the event; `refused` is one such answer (its code and message). */
const AuthorizerRefused = (summary: string, code: string, message: string) =>
  Respond({
    status: 502,
    description: "Authorizer refused: `detail.message` and `detail.code` are the authorizer's own",
    content: json(errorEnvelope, {
      refused: { summary, value: errorExample({ message, code, invoice_id: EXAMPLE_IDS.issuedInvoiceId }) },
    }),
  });

const CANCELLED_EXAMPLE = {
  invoice_id: EXAMPLE_IDS.issuedInvoiceId,
  document_type: 'nfe',
  access_key: EXAMPLE_IDS.issuedAccessKey,
  status: 'cancelled',
  cancellation: {
    amendment_id: '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918',
    kind: 'cancellation',
    sequence: 1,
    text: REASON,
    status: 'registered',
    protocol: '135260000000042',
    status_code: '135',
    status_message: 'Evento registrado e vinculado a NF-e',
    registered_at: '2026-11-22T01:10:00.000Z',
    created_at: '2026-11-22T01:09:59.000Z',
  },
};

/** POST /invoices/{access_key}/cancel: `cancelled` → 200, `short_reason` → 422, `unknown` → 404. */
export const CancelOpenApi = () =>
  applyDecorators(
    AmendedKeyParameter('The access key (NF-e 44, NFS-e 50 digits) or the invoice id', 'cancelled', 'short_reason'),
    ApiBody({
      schema: {
        type: 'object',
        required: ['reason'],
        additionalProperties: false,
        properties: {
          reason: { type: 'string', minLength: 15, maxLength: 255, description: 'NF-e xJust / NFS-e xMotivo' },
          document_type: {
            type: 'string',
            enum: ['nfe', 'nfse'],
            description: 'Optional (also accepted in the query); must match the document',
          },
        },
      } as never,
      examples: {
        cancelled: { summary: 'Cancel', value: { reason: REASON, document_type: 'nfe' } },
        short_reason: { summary: 'A reason under 15 characters', value: { reason: 'engano' } },
        unknown: { summary: 'Cancel', value: { reason: REASON } },
      },
    }),
    Respond({
      status: 200,
      description: 'Registered: the invoice is `cancelled`; `cancellation` is the event as registered',
      content: json(cancellationResultSchema, { cancelled: { summary: 'NF-e cancelled', value: CANCELLED_EXAMPLE } }),
    }),
    OutcomePending(
      'Additive. Still with the authorizer after AMENDMENT_WAIT_MS: `cancellation.status` is `pending`; outcome by webhook or GET',
      cancellationResultSchema,
      { ...CANCELLED_EXAMPLE, status: 'issued', cancellation: pending(CANCELLED_EXAMPLE.cancellation) },
    ),
    InvoiceNotFound(NO_SUCH_DOCUMENT),
    Respond({
      status: 409,
      description:
        'Conflict: already cancelled (ALREADY_CANCELLED), not issued (NOT_ISSUED), outside the NF-e window (the authorizer’s code 501 and ' +
        'message, checked locally), or the same Idempotency-Key still in progress',
      content: json(errorEnvelope, {
        already_cancelled: {
          summary: 'Cancelled already',
          value: errorExample({
            code: 'ALREADY_CANCELLED',
            message: 'The document is already cancelled',
            invoice_id: EXAMPLE_IDS.issuedInvoiceId,
          }),
        },
        late: {
          summary: 'Outside the window',
          value: errorExample({
            code: '501',
            message: 'Rejeição: Pedido de Cancelamento intempestivo (NF-e autorizada a mais de 7 dias)',
            invoice_id: EXAMPLE_IDS.issuedInvoiceId,
          }),
        },
      }),
    }),
    Respond({
      status: 422,
      description:
        'Validation error: `detail` `{ code, field, message }` (reason length, unknown field, document_type); or Idempotency-Key misuse',
      content: json(errorEnvelope, {
        short_reason: {
          summary: 'Reason too short',
          value: errorExample({ code: 'FIELD_INVALID', field: 'reason', message: 'reason must be 15 to 255 characters for nfe (got 6)' }),
        },
      }),
    }),
    AuthorizerRefused('SEFAZ 501', '501', 'Rejeição: Pedido de Cancelamento intempestivo (NF-e autorizada a mais de 7 dias)'),
  );

const CORRECTION = 'Onde se le volume 1 leia-se volumes 1 e 2 (embalagem dupla)';

const CORRECTED_EXAMPLE = {
  invoice_id: EXAMPLE_IDS.issuedInvoiceId,
  document_type: 'nfe',
  access_key: EXAMPLE_IDS.issuedAccessKey,
  status: 'issued',
  correction: {
    amendment_id: '6d5c4b3a-2918-4f7e-8d6c-5b4a39281706',
    kind: 'correction',
    sequence: 1,
    text: CORRECTION,
    status: 'registered',
    protocol: '135260000000041',
    status_code: '135',
    status_message: 'Evento registrado e vinculado a NF-e',
    registered_at: '2026-11-22T01:05:00.000Z',
    created_at: '2026-11-22T01:04:59.000Z',
  },
};

const correctionResultSchema = {
  type: 'object',
  properties: {
    ...cancellationResultSchema.properties,
    status: { type: 'string', description: 'The document stays `issued`' },
    correction: amendmentSchema,
  },
};

/** POST /invoices/{access_key}/correction: `corrected` → 200, `short_correction` → 422, `unknown` → 404. */
export const CorrectionOpenApi = () =>
  applyDecorators(
    AmendedKeyParameter('The NF-e access key (44 digits) or the invoice id', 'corrected', 'short_correction'),
    ApiBody({
      schema: {
        type: 'object',
        required: ['correction'],
        additionalProperties: false,
        properties: {
          correction: { type: 'string', minLength: 15, maxLength: 1000, description: 'xCorrecao: what the letter corrects' },
          document_type: { type: 'string', enum: ['nfe', 'nfse'], description: 'Optional; must match the document' },
        },
      } as never,
      examples: {
        corrected: { summary: 'A correction letter', value: { correction: CORRECTION } },
        short_correction: { summary: 'A text under 15 characters', value: { correction: 'volumes' } },
        unknown: { summary: 'A correction letter', value: { correction: CORRECTION } },
      },
    }),
    Respond({
      status: 200,
      description: 'Registered: `correction` is the letter as registered (nSeqEvento in `sequence`); the document stays `issued`',
      content: json(correctionResultSchema, { corrected: { summary: 'CC-e 1 registered', value: CORRECTED_EXAMPLE } }),
    }),
    OutcomePending(
      'Additive. Still with the authorizer after AMENDMENT_WAIT_MS: `correction.status` is `pending`',
      correctionResultSchema,
      { ...CORRECTED_EXAMPLE, correction: pending(CORRECTED_EXAMPLE.correction) },
    ),
    InvoiceNotFound(NO_SUCH_DOCUMENT),
    Respond({
      status: 409,
      description:
        'Conflict: an NFS-e (NFE_ONLY, SPEC.md rule 1), a cancelled document (CANCELLED), not issued (NOT_ISSUED), the 21st letter ' +
        '(CORRECTION_LIMIT), another letter still being registered (CORRECTION_IN_PROGRESS), or the same Idempotency-Key in progress',
      content: json(errorEnvelope, {
        nfe_only: {
          summary: 'An NFS-e',
          value: errorExample({
            code: 'NFE_ONLY',
            message: 'The correction letter (CC-e) exists for the NF-e only',
            invoice_id: EXAMPLE_IDS.issuedInvoiceId,
          }),
        },
        limit: {
          summary: 'The 21st letter',
          value: errorExample({
            code: 'CORRECTION_LIMIT',
            message: 'At most 20 correction letters per document (nSeqEvento 1 to 20); this one has them all',
            invoice_id: EXAMPLE_IDS.issuedInvoiceId,
          }),
        },
      }),
    }),
    Respond({
      status: 422,
      description: 'Validation error: `detail` `{ code, field, message }` (text length, unknown field); or Idempotency-Key misuse',
      content: json(errorEnvelope, {
        short_correction: {
          summary: 'Text too short',
          value: errorExample({ code: 'FIELD_INVALID', field: 'correction', message: 'correction must be 15 to 1000 characters (got 7)' }),
        },
      }),
    }),
    AuthorizerRefused('SEFAZ 580', '580', 'Rejeição: O evento exige uma NF-e autorizada'),
  );
