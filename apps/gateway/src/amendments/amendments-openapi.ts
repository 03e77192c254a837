// The amendment routes as declared: path, status and OpenAPI document in one decorator each, so the controller shows
// only what the routes do. Request and response examples go together by name (the examples test sends
// each named request and expects the status documented under the same name; placeholders stand for the caller's
// own documents, see ../invoices/invoice-examples.ts).
import { applyDecorators, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, type ApiOperationOptions } from '@nestjs/swagger';
import { AccessKeyParameter, InvoiceNotFound } from '../invoices/document-openapi.js';
import { EXAMPLE_IDS, errorExample } from '../invoices/invoice-examples.js';
import { IdempotencyKeyHeader } from '../invoices/invoice-openapi.js';
import { errorContent, errorEnvelope, json, Respond } from '../openapi/decorators.js';
import { filedProperties } from './filed-request-schemas.js';

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

type Examples = Record<string, { summary: string; value: unknown }>;

/** A 409 example: the example NF-e refused, before the authorizer, with `code` and `message`. */
const refusedExample = (summary: string, code: string, message: string) => ({
  summary,
  value: errorExample({ code, message, invoice_id: EXAMPLE_IDS.issuedInvoiceId }),
});

/** A 422 example: the body's `field` refused with `message`. */
const invalidFieldExample = (summary: string, field: string, message: string) => ({
  summary,
  value: errorExample({ code: 'FIELD_INVALID', field, message }),
});

/** What one amendment route declares of its own; AmendmentRoute writes what every amendment route has. */
interface AmendmentDocs {
  /** Under /invoices: `:access_key/<action>`. */
  readonly path: string;
  readonly operation: ApiOperationOptions;
  /** The `{access_key}` parameter. */
  readonly key: string;
  /** The JSON body: its required fields, its fields, and the requests by name (each on an issued NF-e, `unknown` on none). */
  readonly body: { readonly required: string[]; readonly properties: object; readonly examples: Examples };
  /** The answer's schema: 200 once registered (its examples by name), 202 while pending (the answer then). */
  readonly answer: object;
  readonly registered: { readonly description: string; readonly examples: Examples };
  readonly pending: { readonly description: string; readonly value: object };
  /** 409 (checked before the authorizer) and 422, their descriptions and examples by name. */
  readonly conflict: { readonly description: string; readonly examples: Examples };
  readonly invalid: { readonly description: string; readonly examples: Examples };
  /** 502: one refusal by the authorizer (its code and message). */
  readonly refused: { readonly summary: string; readonly code: string; readonly message: string };
}

/**
 * A POST amendment route: 200 when registered (not 201: nothing new is created at this path), the Idempotency-Key
 * header, and the answers every amendment route gives (applied as decorators written above the method would be).
 */
const AmendmentRoute = ({
  path,
  operation,
  key,
  body,
  answer,
  registered,
  pending: stillPending,
  conflict,
  invalid,
  refused,
}: AmendmentDocs) =>
  applyDecorators(
    AmendedKeyParameter(key, ...Object.keys(body.examples).filter((name) => name !== 'unknown')),
    ApiBody({
      schema: { type: 'object', required: body.required, additionalProperties: false, properties: body.properties } as never,
      examples: body.examples,
    }),
    Respond({ status: 200, description: registered.description, content: json(answer, registered.examples) }),
    OutcomePending(stillPending.description, answer, stillPending.value),
    InvoiceNotFound(NO_SUCH_DOCUMENT),
    Respond({ status: 409, description: conflict.description, content: errorContent(conflict.examples) }),
    Respond({ status: 422, description: invalid.description, content: errorContent(invalid.examples) }),
    AuthorizerRefused(refused.summary, refused.code, refused.message),
    IdempotencyKeyHeader(),
    ApiOperation(operation),
    HttpCode(200),
    Post(path),
  );

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

/** The cancel route's requests by name: each answers as the response example of its name. */
const CANCEL_REQUESTS = {
  cancelled: { summary: 'Cancel', value: { reason: REASON, document_type: 'nfe' } },
  short_reason: { summary: 'A reason under 15 characters', value: { reason: 'engano' } },
  unknown: { summary: 'Cancel', value: { reason: REASON } },
};

const LATE_CANCELLATION = 'Rejeição: Pedido de Cancelamento intempestivo (NF-e autorizada a mais de 7 dias)';

/** POST /invoices/{access_key}/cancel: `cancelled` → 200, `short_reason` → 422, `unknown` → 404. */
export const CancelRoute = () =>
  AmendmentRoute({
    path: ':access_key/cancel',
    operation: {
      operationId: 'cancelInvoice',
      summary: 'Cancel an issued NF-e or NFS-e (event 110111 / e101101)',
      description:
        'Body `reason` (15 to 255 characters for both types) and optional `document_type` (or in the query). Checked before the authorizer: ' +
        'only an `issued` document (409 NOT_ISSUED; 409 ALREADY_CANCELLED when cancelled), inside the NF-e window counted from the authorization ' +
        '(24 h in every state today, a per-state table; outside it 409 with the authorizer’s own code 501 and message). The NFS-e has no national ' +
        'window: Sefin applies the municipality’s rule. Waits up to AMENDMENT_WAIT_MS (default 10 s): 200 with the record (`status: cancelled`) ' +
        'when registered, 502 `{ detail: { message, code } }` when the authorizer refused, 202 while pending. Event `invoice.cancelled`; the ' +
        'plan quota is not refunded. Accepts `Idempotency-Key` with the rules of POST /invoices.',
    },
    key: 'The access key (NF-e 44, NFS-e 50 digits) or the invoice id',
    body: {
      required: ['reason'],
      properties: {
        reason: { type: 'string', minLength: 15, maxLength: 255, description: 'NF-e xJust / NFS-e xMotivo' },
        document_type: {
          type: 'string',
          enum: ['nfe', 'nfse'],
          description: 'Optional (also accepted in the query); must match the document',
        },
      },
      examples: CANCEL_REQUESTS,
    },
    answer: cancellationResultSchema,
    registered: {
      description: 'Registered: the invoice is `cancelled`; `cancellation` is the event as registered',
      examples: { cancelled: { summary: 'NF-e cancelled', value: CANCELLED_EXAMPLE } },
    },
    pending: {
      description:
        'Additive. Still with the authorizer after AMENDMENT_WAIT_MS: `cancellation.status` is `pending`; outcome by webhook or GET',
      value: { ...CANCELLED_EXAMPLE, status: 'issued', cancellation: pending(CANCELLED_EXAMPLE.cancellation) },
    },
    conflict: {
      description:
        'Conflict: already cancelled (ALREADY_CANCELLED), not issued (NOT_ISSUED), outside the NF-e window (the authorizer’s code 501 and ' +
        'message, checked locally), or the same Idempotency-Key still in progress',
      examples: {
        already_cancelled: refusedExample('Cancelled already', 'ALREADY_CANCELLED', 'The document is already cancelled'),
        late: refusedExample('Outside the window', '501', LATE_CANCELLATION),
      },
    },
    invalid: {
      description:
        'Validation error: `detail` `{ code, field, message }` (reason length, unknown field, document_type); or Idempotency-Key misuse',
      examples: {
        short_reason: invalidFieldExample('Reason too short', 'reason', 'reason must be 15 to 255 characters for nfe (got 6)'),
      },
    },
    refused: { summary: 'SEFAZ 501', code: '501', message: LATE_CANCELLATION },
  });

const CORRECTION = 'Onde se le volume 1 leia-se volumes 1 e 2 (embalagem dupla)';

/** The correction route's requests by name: each answers as the response example of its name. */
const CORRECTION_REQUESTS = {
  corrected: { summary: 'A correction letter', value: { correction: CORRECTION } },
  short_correction: { summary: 'A text under 15 characters', value: { correction: 'volumes' } },
  unknown: { summary: 'A correction letter', value: { correction: CORRECTION } },
};

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
export const CorrectionRoute = () =>
  AmendmentRoute({
    path: ':access_key/correction',
    operation: {
      operationId: 'correctInvoice',
      summary: 'File a correction letter (CC-e, event 110110) on an issued NF-e',
      description:
        'Body `correction` (15 to 1000 characters). NF-e only: on an NFS-e 409 NFE_ONLY. Numbered by the service (nSeqEvento 1..20, each ' +
        'replacing the previous one at SEFAZ, sent with the legal condition-of-use text); the 21st answers 409 CORRECTION_LIMIT before the ' +
        'authorizer; a cancelled document 409 CANCELLED. No credit and no number consumed. The document stays `issued`; GET ' +
        '/invoices/{access_key} lists the letters (`amendments`). Event `invoice.corrected`. Waits like cancel: 200 / 502 / 202. Accepts ' +
        '`Idempotency-Key`.',
    },
    key: 'The NF-e access key (44 digits) or the invoice id',
    body: {
      required: ['correction'],
      properties: {
        correction: { type: 'string', minLength: 15, maxLength: 1000, description: 'xCorrecao: what the letter corrects' },
        document_type: { type: 'string', enum: ['nfe', 'nfse'], description: 'Optional; must match the document' },
      },
      examples: CORRECTION_REQUESTS,
    },
    answer: correctionResultSchema,
    registered: {
      description: 'Registered: `correction` is the letter as registered (nSeqEvento in `sequence`); the document stays `issued`',
      examples: { corrected: { summary: 'CC-e 1 registered', value: CORRECTED_EXAMPLE } },
    },
    pending: {
      description: 'Additive. Still with the authorizer after AMENDMENT_WAIT_MS: `correction.status` is `pending`',
      value: { ...CORRECTED_EXAMPLE, correction: pending(CORRECTED_EXAMPLE.correction) },
    },
    conflict: {
      description:
        'Conflict: an NFS-e (NFE_ONLY, SPEC.md rule 1), a cancelled document (CANCELLED), not issued (NOT_ISSUED), the 21st letter ' +
        '(CORRECTION_LIMIT), another letter still being registered (CORRECTION_IN_PROGRESS), or the same Idempotency-Key in progress',
      examples: {
        nfe_only: refusedExample('An NFS-e', 'NFE_ONLY', 'The correction letter (CC-e) exists for the NF-e only'),
        limit: refusedExample(
          'The 21st letter',
          'CORRECTION_LIMIT',
          'At most 20 correction letters per document (nSeqEvento 1 to 20); this one has them all',
        ),
      },
    },
    invalid: {
      description: 'Validation error: `detail` `{ code, field, message }` (text length, unknown field); or Idempotency-Key misuse',
      examples: {
        short_correction: invalidFieldExample('Text too short', 'correction', 'correction must be 15 to 1000 characters (got 7)'),
      },
    },
    refused: { summary: 'SEFAZ 580', code: '580', message: 'Rejeição: O evento exige uma NF-e autorizada' },
  });
