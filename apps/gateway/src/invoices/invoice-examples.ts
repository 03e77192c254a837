// Examples of the OpenAPI document for the invoice and account routes. Convention (the one the example test relies
// on, e2e/contract/openapi-examples.e2e-spec.ts): a request example (body, or the parameters that carry an example of
// that name) and the response example of the same name go together, so the name says which status a request answers.
// Ids and keys below are placeholders of one shape each: the test substitutes a real invoice of the kind named for
// each placeholder and posts every example as written otherwise. An `unknown_*` value is meant to exist nowhere.

export const EXAMPLE_IDS = {
  issuedInvoiceId: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f',
  issuedAccessKey: '35261111222333000181550010000000011000000017',
  rejectedInvoiceId: '5d1e0c9a-8b7f-4e6d-a5c4-b3a2918f7e6d',
  replacementInvoiceId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  companyId: '3c2b1a09-8f7e-4d6c-9b5a-493827161504',
  unknownInvoiceId: '00000000-0000-4000-8000-000000000000',
  unknownAccessKey: '35261199999999000191550010000000011000000010',
  unknownCompanyId: '00000000-0000-4000-8000-00000000ffff',
} as const;

const ISSUED_AT = '2026-11-22T00:40:00.000Z';

export const NFE_RECORD_EXAMPLE = {
  invoice_id: EXAMPLE_IDS.issuedInvoiceId,
  document_type: 'nfe',
  access_key: EXAMPLE_IDS.issuedAccessKey,
  status: 'issued',
  protocol: '135260000000001',
  amount: 99.8,
  total_amount: '99.80',
  series: 1,
  number: 1,
  environment: 'homologation',
  status_code: '100',
  status_message: 'Autorizado o uso da NF-e',
  contingency: false,
  reissue_of: null,
  replaced_by: null,
  issued_at: ISSUED_AT,
  created_at: '2026-11-22T00:39:59.412Z',
};

export const NFSE_RECORD_EXAMPLE = {
  ...NFE_RECORD_EXAMPLE,
  invoice_id: '4f3e2d1c-0b9a-4876-a543-210fedcba987',
  document_type: 'nfse',
  access_key: '35503082211222333000181000000000000126110000000015',
  protocol: '1e8b3c2a-6f5d-4e4c-9b3a-2d1c0b9a8f7e',
  amount: 1500,
  total_amount: '1500.00',
  dps_id: 'DPS355030821122233300018100001000000000000001',
  status_code: '100',
  status_message: 'NFS-e gerada',
};

/** A rejected attempt: no access key, no protocol; `replaced_by` once reissued. */
export const REJECTED_RECORD_EXAMPLE = {
  invoice_id: EXAMPLE_IDS.rejectedInvoiceId,
  document_type: 'nfe',
  status: 'rejected',
  protocol: null,
  amount: 99.8,
  total_amount: '99.80',
  series: 1,
  number: 2,
  environment: 'homologation',
  status_code: '778',
  status_message: 'Rejeicao: Informado NCM inexistente',
  contingency: false,
  reissue_of: null,
  replaced_by: EXAMPLE_IDS.replacementInvoiceId,
  issued_at: null,
  created_at: '2026-11-22T00:41:10.207Z',
};

export const REISSUED_RECORD_EXAMPLE = {
  ...NFE_RECORD_EXAMPLE,
  invoice_id: EXAMPLE_IDS.replacementInvoiceId,
  access_key: '35261111222333000181550010000000031000000036',
  protocol: '135260000000003',
  number: 3,
  reissue_of: EXAMPLE_IDS.rejectedInvoiceId,
};

export const PROCESSING_RECORD_EXAMPLE = {
  ...NFE_RECORD_EXAMPLE,
  status: 'processing',
  protocol: null,
  status_code: null,
  status_message: null,
  issued_at: null,
};

const REQUEST_ID = 'b1f0c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

export const errorExample = (detail: unknown, extra: Record<string, unknown> = {}) => ({ detail, ...extra, request_id: REQUEST_ID });

export const fieldErrorExample = (error: { code: string; field: string; message: string; expected: string; received: unknown }) =>
  errorExample(error, { errors: [error] });
