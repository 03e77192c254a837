// The requests the documentation shows (the OpenAPI document's examples) and the tests start from (the testing
// entry's samples clone these): written from SPEC.md's tables "Invoice request", "Item" and "Address", so what a
// reader copies is what the suite proves.

/** A one-item NF-e, same state (CFOP 5102), ICMS CST 00 at 18%, PIS/COFINS by rate, IBS/CBS. */
export const NFE_REQUEST_EXAMPLE = {
  document_type: 'nfe',
  client_name: 'Maria da Silva',
  tax_id: '12345678909',
  client_email: 'maria@example.com',
  recipient_address: {
    street: 'Rua Augusta',
    number: '500',
    neighborhood: 'Consolacao',
    city: 'Sao Paulo',
    state: 'SP',
    zip_code: '01305000',
    city_code: '3550308',
  },
  items: [
    {
      description: 'Camiseta algodao',
      unit_price: '49.90',
      product: {
        code: 'SKU-1',
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
} as const;

/**
 * A one-item NFS-e (service 1.07). The operation indicator (cIndOp) is in the request because the companies table
 * has no default for it.
 */
export const NFSE_REQUEST_EXAMPLE = {
  document_type: 'nfse',
  client_name: 'Cliente Servicos Ltda',
  tax_id: '11222333000181',
  items: [
    {
      description: 'Suporte tecnico',
      amount: '1500.00',
      service_code: '1.07',
      tax_retained: false,
      observations: 'Contrato 12/2026',
      ibs_cbs: {
        cst: '000',
        classification: '000001',
        rate_state: '0.1',
        rate_city: '0',
        rate_federal: '0.9',
        operation_indicator: '100301',
      },
    },
  ],
} as const;
