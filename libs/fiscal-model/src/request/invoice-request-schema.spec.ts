import { invoiceRequestJsonSchema } from './invoice-request-schema.js';

describe('invoiceRequestJsonSchema', () => {
  const schema = invoiceRequestJsonSchema() as { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: unknown; $schema: string };
  it('is a draft 2020-12 object schema refusing unknown fields', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(expect.arrayContaining(['document_type', 'buyer', 'items']));
    expect(schema.additionalProperties).toBe(false);
  });
  it('carries descriptions and examples down to the tax object', () => {
    expect(schema.properties.document_type!.description).toMatch(/NF-e/);
    const item = (schema.properties.items as { items: { properties: Record<string, { description?: string; examples?: unknown[] }> } }).items;
    expect(item.properties.amount!.description).toMatch(/2 decimal places/);
    expect(item.properties.amount!.examples).toBeDefined();
    const tax = item.properties.tax as unknown as { properties: { icms: { description: string; examples: unknown[] } } };
    expect(tax.properties.icms.description).toMatch(/cst \/ csosn/);
    expect(tax.properties.icms.examples).toContainEqual({ cst: '00', origin: '0', rate: '18' });
    expect(JSON.stringify(schema)).toContain('IBS/CBS');
  });
});
