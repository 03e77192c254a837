import { invoiceRequestJsonSchema } from './invoice-request-schema.js';

type Node = {
  properties: Record<string, Node>;
  items: Node;
  required?: string[];
  description?: string;
  examples?: unknown[];
  additionalProperties?: unknown;
};

describe('invoiceRequestJsonSchema', () => {
  const schema = invoiceRequestJsonSchema() as unknown as Node & { $schema: string };
  it("is a draft 2020-12 object schema of SPEC.md's request, refusing unknown fields", () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(['document_type', 'client_name', 'tax_id', 'items']);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['recipient_address', 'series', 'number', 'contingency']));
    expect(Object.keys(schema.properties)).not.toContain('buyer');
    expect(Object.keys(schema.properties.recipient_address!.properties)).toEqual(
      expect.arrayContaining(['street', 'number', 'neighborhood', 'city', 'state', 'zip_code', 'city_code']),
    );
  });
  it('carries descriptions and examples down to product.br.tax', () => {
    expect(schema.properties.document_type!.description).toMatch(/NF-e/);
    const item = schema.properties.items!.items;
    expect(Object.keys(item.properties)).toEqual([
      'description',
      'unit_price',
      'amount',
      'product',
      'discount',
      'service_code',
      'tax_retained',
      'observations',
      'ibs_cbs',
    ]);
    expect(item.properties.amount!.description).toMatch(/2 places/);
    expect(item.properties.amount!.examples).toBeDefined();
    const product = item.properties.product!;
    expect(Object.keys(product.properties)).toEqual(
      expect.arrayContaining(['quantity', 'unit', 'barcode', 'discount', 'freight', 'insurance', 'other_expenses', 'br']),
    );
    const br = product.properties.br!;
    expect(Object.keys(br.properties)).toEqual(expect.arrayContaining(['ncm', 'cfop', 'cest', 'tax', 'manufacturer_cnpj', 'ibs_cbs']));
    const icms = br.properties.tax!.properties.icms!;
    expect(icms.description).toMatch(/cst \/ csosn/);
    expect(icms.examples).toContainEqual({ cst: '00', origin: '0', rate: '18' });
    expect(JSON.stringify(schema)).toContain('IBS/CBS');
  });
});
