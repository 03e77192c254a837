// Request and response shapes for the OpenAPI document, as JSON Schema 2020-12 produced by zod (the same schemas
// the use cases validate with, so the document cannot drift from the code for request bodies).
import { z } from 'zod';
import {
  createApiKeyInputSchema,
  createCompanyInputSchema,
  setCertificateInputSchema,
  updateCompanyInputSchema,
} from '@talao/company-admin';

type JsonSchema = Record<string, unknown>;

/** `{ type: [type, 'null'] }`: a field always present, null until it has a value. */
export const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

export const errorEnvelopeSchema = z.object({
  detail: z.union([z.string(), z.record(z.string(), z.unknown())]).describe('What went wrong: a sentence, or an object with details'),
  request_id: z.string().describe('The X-Request-Id of the request, to find it in the logs'),
});

/** The envelope of a list route (see ../http/pagination.ts) around rows of `row`. */
export const pageSchemaOf = (row: z.ZodType) =>
  z.object({
    total: z.number().int(),
    total_pages: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
    next_page: z.number().int().nullable(),
    prev_page: z.number().int().nullable(),
    data: z.array(row),
  });

export const meSchema = z.object({
  company: z.object({ id: z.uuid(), tax_id: z.string(), name: z.string() }),
  environment: z.enum(['homologation', 'production']),
  api_key: z.object({ id: z.uuid(), name: z.string(), prefix: z.string() }),
});

const nullableString = z.string().nullable();

export const companySchema = z.object({
  id: z.uuid(),
  tax_id: z.string(),
  legal_name: z.string(),
  trade_name: nullableString,
  tax_regime: z.enum(['simples_nacional', 'simples_nacional_excess', 'normal', 'mei']).nullable(),
  state_registration: nullableString,
  municipal_registration: nullableString,
  address: z.object({
    street: nullableString,
    number: nullableString,
    complement: nullableString,
    neighborhood: nullableString,
    city: z.string().describe('The IBGE name of city_code'),
    state: z.string(),
    zip_code: nullableString,
    city_code: z.string(),
  }),
  phone: nullableString,
  email: nullableString,
  default_series: z.object({ nfe: z.number().int(), nfse: z.number().int() }),
  default_nfse_service_code: nullableString,
  approximate_taxes: z
    .object({ federal: z.string(), state: z.string(), municipal: z.string() })
    .nullable()
    .describe(
      'Lei 12.741/2012 approximate tax burden of its services, percent as decimal text; null = not set (an NFS-e then needs it, unless MEI)',
    ),
  plan: z.object({
    name: z.string(),
    production_quota: z.number().int().nullable().describe('Production invoices per calendar month; null = unlimited'),
    overage_price: nullableString.describe('Decimal string per invoice above the quota; null = issuance stops at the quota'),
  }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const certificateSchema = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  subject_tax_id: z.string(),
  subject_name: z.string(),
  issuer_name: z.string(),
  serial_number: z.string(),
  not_before: z.iso.datetime(),
  not_after: z.iso.datetime(),
  uploaded_at: z.iso.datetime(),
  trust: z.enum(['icp_brasil', 'test_ca']).optional().meta({
    description:
      'Upload answer only: the certificate chains to the configured ICP-Brasil bundle, or (no bundle configured) to the test CA — homologation only',
  }),
  trust_note: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'Upload answer only: which authority the chain ends at, and what that allows' }),
});

const apiKeyBase = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  name: z.string(),
  environment: z.enum(['homologation', 'production']),
  context: z.enum(['sdk', 'api']),
  prefix: z.string(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
});

export const createdApiKeySchema = apiKeyBase.extend({
  key: z.string().describe('The full API key. Shown only in this response: store it now, it cannot be retrieved again.'),
});

export const schemas = {
  ErrorEnvelope: jsonSchemaOf(errorEnvelopeSchema),
  Me: jsonSchemaOf(meSchema),
  Company: jsonSchemaOf(companySchema),
  Certificate: jsonSchemaOf(certificateSchema),
  CreatedApiKey: jsonSchemaOf(createdApiKeySchema),
  CreateCompanyRequest: jsonSchemaOf(createCompanyInputSchema, 'input'),
  UpdateCompanyRequest: jsonSchemaOf(updateCompanyInputSchema, 'input'),
  SetCertificateRequest: jsonSchemaOf(setCertificateInputSchema, 'input'),
  CreateApiKeyRequest: jsonSchemaOf(createApiKeyInputSchema, 'input'),
};

export const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });
