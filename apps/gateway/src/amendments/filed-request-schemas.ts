// JSON Schemas of the requests filed with the authorizer on a company's behalf, shared by the routes that answer them
// (amendments, invalidations) and by an NF-e's submission history. Schemas only: no decorators, no imports of the
// route modules, so any of them can use these without an import cycle.
import { nullable } from '../openapi/schemas.js';

/** The fields of a request filed with the authorizer (an amendment, an invalidation): where it stands, and its answer. */
export const filedProperties = (protocolDescription: string) => ({
  status: { type: 'string', enum: ['pending', 'registered', 'rejected'] },
  protocol: nullable('string', { description: protocolDescription }),
  status_code: nullable('string'),
  status_message: nullable('string'),
  registered_at: nullable('string', { format: 'date-time' }),
  created_at: { type: 'string', format: 'date-time' },
});

/** A numbering range as the API shows it (GET /invoices/invalidations, and in an NF-e's submissions). */
export const invalidationSchema = {
  type: 'object',
  properties: {
    invalidation_id: { type: 'string', format: 'uuid' },
    document_type: { const: 'nfe' },
    series: { type: 'integer' },
    number_start: { type: 'integer' },
    number_end: { type: 'integer', description: 'Inclusive' },
    reason: { type: 'string' },
    ...filedProperties('SEFAZ’s protocol (nProt) once registered'),
  },
};
