// OpenAPI pieces of the invoice routes: the request body is the fiscal-model zod schema itself (z.toJSONSchema), so the
// document cannot drift from validation; responses are described here with examples.
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiResponse } from '@nestjs/swagger';
import { invoiceRequestJsonSchema } from '@talao/fiscal-model';

const { $schema: _dialect, ...requestSchema } = invoiceRequestJsonSchema();

/** Request-body examples written from SPEC.md's tables ("Invoice request", "Item", "Address"). */
export const NFE_EXAMPLE = {
  document_type: 'nfe',
  client_name: 'Maria da Silva',
  tax_id: '12345678909',
  recipient_address: { street: 'Rua Augusta', number: '500', neighborhood: 'Consolacao', city: 'Sao Paulo', state: 'SP', zip_code: '01305000', city_code: '3550308' },
  items: [
    {
      description: 'Camiseta algodao',
      unit_price: '49.90',
      product: {
        quantity: '2',
        unit: 'UN',
        barcode: '7891000315507',
        br: {
          ncm: '61091000',
          cfop: '5102',
          tax: { icms: { cst: '00', origin: '0', rate: '18' }, pis: { cst: '01', rate: '1.65' }, cofins: { cst: '01', rate: '7.6' } },
          ibs_cbs: { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' },
        },
      },
    },
  ],
};

export const NFSE_EXAMPLE = {
  document_type: 'nfse',
  client_name: 'Cliente Servicos Ltda',
  tax_id: '11222333000181',
  items: [{ description: 'Suporte tecnico', amount: '1500.00', service_code: '1.07', tax_retained: false, observations: 'Contrato 12/2026' }],
};

const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

export const issuedSchema = {
  type: 'object',
  required: ['invoice_id', 'document_type', 'access_key', 'status', 'protocol', 'series', 'number', 'environment', 'issued_at', 'total_amount'],
  properties: {
    invoice_id: { type: 'string', format: 'uuid' },
    document_type: { enum: ['nfe', 'nfse'] },
    access_key: { type: 'string', description: 'NF-e: 44 digits; NFS-e: 50 digits' },
    status: { const: 'issued' },
    protocol: { type: 'string' },
    series: { type: 'integer' },
    number: { type: 'integer' },
    environment: { enum: ['homologation', 'production'] },
    issued_at: { type: 'string', format: 'date-time' },
    total_amount: { type: 'string', description: 'Decimal string' },
    contingency: { type: 'boolean', description: 'Present (true) when issued through SVC' },
  },
  examples: [{
    invoice_id: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f', document_type: 'nfe', access_key: '35261112345678000190550010000000011000000017', status: 'issued',
    protocol: '135260000000001', series: 1, number: 1, environment: 'homologation', issued_at: '2026-11-22T00:40:00.000Z', total_amount: '99.80',
  }],
};

export const processingSchema = {
  type: 'object',
  required: ['invoice_id', 'status'],
  properties: { invoice_id: { type: 'string', format: 'uuid' }, status: { const: 'processing' } },
  examples: [{ invoice_id: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f', status: 'processing' }],
};

const authorizerErrorSchema = (description: string) => ({
  type: 'object',
  description,
  properties: {
    detail: {
      type: 'object',
      properties: { message: { type: 'string', description: "The authorizer's own message" }, code: nullable('string', { description: 'cStat (NF-e) or the national error code (NFS-e)' }), invoice_id: { type: 'string', format: 'uuid' } },
    },
    request_id: { type: 'string' },
  },
  examples: [{ detail: { message: 'Rejeicao: Informado NCM inexistente', code: '778', invoice_id: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f' }, request_id: 'b1f0…' }],
});

export const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_id: { type: 'string', format: 'uuid' },
    document_type: { enum: ['nfe', 'nfse'] },
    status: { enum: ['processing', 'issued', 'rejected', 'failed', 'cancelled'] },
    access_key: nullable('string', { description: 'Access key; an NFS-e not yet authorized shows its DPS id' }),
    dps_id: nullable('string', { description: 'NFS-e only' }),
    series: { type: 'integer' },
    number: { type: 'integer' },
    environment: { enum: ['homologation', 'production'] },
    protocol: nullable('string'),
    status_code: nullable('string'),
    status_message: nullable('string'),
    contingency: { type: 'boolean' },
    total_amount: { type: 'string' },
    reissue_of: nullable('string', { format: 'uuid' }),
    issued_at: nullable('string', { format: 'date-time' }),
    created_at: { type: 'string', format: 'date-time' },
  },
};

export const invoicePageSchema = {
  type: 'object',
  properties: {
    total: { type: 'integer' },
    total_pages: { type: 'integer' },
    page: { type: 'integer' },
    page_size: { type: 'integer' },
    next_page: nullable('integer'),
    prev_page: nullable('integer'),
    data: { type: 'array', items: invoiceSchema },
  },
  examples: [{ total: 1, total_pages: 1, page: 1, page_size: 20, next_page: null, prev_page: null, data: [] }],
};

export const consultSchema = {
  type: 'object',
  properties: {
    invoice: invoiceSchema,
    authorizer: {
      description: "The authorizer's view now; `available: false` (with the reason) when it could not be asked",
      oneOf: [
        {
          type: 'object',
          properties: {
            available: { const: true }, outcome: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' },
            protocol: nullable('string'), response_xml: nullable('string', { description: "The authorizer's answer as received" }),
          },
        },
        { type: 'object', properties: { available: { const: false }, reason: { type: 'string' } } },
      ],
    },
  },
};

export const submissionsSchema = {
  type: 'object',
  properties: {
    invoice_id: { type: 'string', format: 'uuid' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          attempt: { type: 'integer' }, operation: { type: 'string', examples: ['NFeAutorizacao4'] }, endpoint: { type: 'string' },
          outcome: nullable('string', { description: 'authorized | rejected | unavailable | unknown | accepted (consults)' }),
          http_status: nullable('integer'), status_code: nullable('string'), status_message: nullable('string'),
          request_body: { type: 'string', description: 'Exactly as transmitted (the signed XML inside its envelope)' },
          response_body: nullable('string', { description: 'Exactly as received; null when no answer arrived' }),
          sent_at: { type: 'string', format: 'date-time' }, answered_at: nullable('string', { format: 'date-time' }),
        },
      },
    },
  },
};

const errorEnvelope = { $ref: '#/components/schemas/ErrorEnvelope' };

export const IdempotencyKeyHeader = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 characters, scoped to your company and environment, kept 24 h. The same key with the same body answers the first ' +
      'response again (same status and body; nothing issued or charged twice); another body → 422; while the first call runs → 409.',
  });

export const InvoiceRequestBody = () =>
  ApiBody({ schema: { ...requestSchema, examples: [NFE_EXAMPLE, NFSE_EXAMPLE] } as never, description: 'The sale to issue (NF-e or NFS-e)' });

/** The outcomes of POST /invoices and reissue, all documented. */
export const IssuanceResponses = () =>
  applyDecorators(
    ApiResponse({ status: 201, description: 'Authorized', schema: issuedSchema as never }),
    ApiResponse({
      status: 202,
      description: 'Still with the authorizer after the wait window (ISSUE_WAIT_MS). The outcome arrives by webhook (invoice.authorized / ' +
        'invoice.rejected) or by GET on the `Location` header.',
      schema: processingSchema as never,
      headers: { Location: { description: 'GET here for the invoice and the authorizer’s view', schema: { type: 'string' } } },
    }),
    ApiResponse({ status: 400, description: 'The company cannot issue yet: `detail` names what is missing (certificate, state registration, address, tax regime, …)', schema: errorEnvelope }),
    ApiResponse({ status: 402, description: 'Production quota reached and the plan has no overage price (homologation is free and unlimited)', schema: errorEnvelope }),
    ApiResponse({ status: 409, description: 'Number already used; Idempotency-Key still in flight; (reissue) the invoice is not rejected or failed', schema: errorEnvelope }),
    ApiResponse({ status: 422, description: 'Invalid request: `detail` is the first field error `{ code, field, message, expected, received }`, `errors` lists all; or a bad Idempotency-Key', schema: errorEnvelope }),
    ApiResponse({ status: 502, description: "Rejected by the authorizer: its own message and code; the number stays a gap (reissue takes a new one)", schema: authorizerErrorSchema('Rejected') as never }),
    ApiResponse({ status: 503, description: 'The authorizer stayed unavailable through every retry (`status: failed`; can be reissued)', schema: authorizerErrorSchema('Failed') as never }),
  );
