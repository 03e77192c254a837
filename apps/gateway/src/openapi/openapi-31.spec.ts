import { toOpenApi31 } from './openapi-31.js';

describe('toOpenApi31', () => {
  it('rewrites 3.0 schema idioms into JSON Schema 2020-12', () => {
    const document = toOpenApi31({
      openapi: '3.0.0',
      paths: {
        '/x': {
          get: {
            parameters: [{ name: 'n', in: 'query', schema: { type: 'number', minimum: 0, exclusiveMinimum: true, example: 1 } }],
            responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A', nullable: true } } } } },
          },
        },
      },
      components: {
        schemas: { A: { type: 'object', properties: { s: { type: 'string', nullable: true }, t: { type: ['integer', 'null'] } } } },
      },
    });
    expect(document.openapi).toBe('3.1.0');
    expect(document).toMatchObject({ jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base' });
    const get = document.paths['/x'].get;
    expect(get.parameters[0]!.schema).toEqual({ type: 'number', exclusiveMinimum: 0, examples: [1] });
    expect(get.responses[200].content['application/json'].schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }],
    });
    expect(document.components.schemas.A.properties).toEqual({ s: { type: ['string', 'null'] }, t: { type: ['integer', 'null'] } });
    expect(JSON.stringify(document)).not.toContain('nullable');
  });
});
