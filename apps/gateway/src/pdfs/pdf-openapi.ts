// The OpenAPI description of GET /invoices/{access_key}/pdf. Its named examples are sent to the running gateway by
// e2e/contract/openapi-examples.e2e-spec.ts (404, 409, 422); the 200 is proven by e2e/pdf (the renderer running).
import { applyDecorators } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import { EXAMPLE_IDS, errorExample } from '../invoices/invoice-examples.js';
import { MISSING_DOCUMENT_TYPE_EXAMPLE } from '../invoices/document-openapi.js';
import { errorContent as errors, Respond } from '../openapi/decorators.js';

export const PdfParameters = () =>
  applyDecorators(
    ApiParam({
      name: 'access_key',
      schema: { type: 'string' },
      description: 'The access key (NF-e 44, NFS-e 50 digits), or the invoice_id',
      examples: {
        unknown: { summary: 'A key that is not yours: 404', value: EXAMPLE_IDS.unknownAccessKey },
        rejected: { summary: 'A rejected attempt of yours (by its invoice_id): 409', value: EXAMPLE_IDS.rejectedInvoiceId },
        missing_document_type: { summary: 'Without document_type: 422', value: EXAMPLE_IDS.issuedAccessKey },
      },
    }),
    ApiQuery({
      name: 'document_type',
      required: true,
      enum: ['nfe', 'nfse'],
      examples: { unknown: { summary: 'NF-e', value: 'nfe' }, rejected: { summary: 'NF-e', value: 'nfe' } },
    }),
    ApiQuery({
      name: 'source',
      required: false,
      enum: ['platform', 'authorizer'],
      description:
        '`platform` (default): rendered by the platform, kept per version. `authorizer` (NFS-e only): the national environment’s official ' +
        'DANFSe, fetched each time (502 when it is unavailable; 422 for an NF-e, SEFAZ serves no DANFE)',
    }),
    Respond({
      status: 200,
      description: 'The PDF (A4). `Content-Disposition: attachment; filename="<access key>.pdf"`; `ETag` the SHA-256 of the bytes',
      headers: {
        ETag: { description: 'Quoted SHA-256 of the PDF; send it back in If-None-Match', schema: { type: 'string' } },
        'Content-Disposition': { description: 'attachment; filename="<access key>.pdf"', schema: { type: 'string' } },
      },
      content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    }),
    Respond({ status: 304, description: 'If-None-Match names the current ETag: not modified, no body' }),
    Respond({
      status: 400,
      description: '`source=authorizer`: the company has no active certificate to ask the national environment with',
      content: errors({
        no_certificate: {
          summary: 'No certificate',
          value: errorExample('The company has no active certificate to ask the national environment with'),
        },
      }),
    }),
    Respond({
      status: 404,
      description: 'No document with that key belongs to the company behind the key',
      content: errors({ unknown: { summary: 'Not yours, or none', value: errorExample('Invoice not found') } }),
    }),
    Respond({
      status: 409,
      description: 'The document has no PDF: it was rejected, failed, or is still pending (only authorized or cancelled documents print)',
      content: errors({
        rejected: {
          summary: 'A rejected attempt',
          value: errorExample('the invoice was not authorized (status rejected): only authorized or cancelled documents have a PDF'),
        },
      }),
    }),
    Respond({
      status: 422,
      description: '`document_type` missing or invalid, or an unknown query parameter: `detail` the first field error, `errors` all',
      content: errors(MISSING_DOCUMENT_TYPE_EXAMPLE),
    }),
    Respond({
      status: 502,
      description:
        '`source=authorizer`: the national environment did not give its DANFSe (unavailable, timed out, or refused): `detail.message`, and `detail.code` when it refused',
      content: errors({
        adn_unavailable: {
          summary: 'ADN unavailable',
          value: errorExample({ message: 'The national environment is unavailable: connect ECONNREFUSED 127.0.0.1:8443' }),
        },
      }),
    }),
    Respond({
      status: 503,
      description: 'The PDF is still being rendered after PDF_WAIT_MS: ask again after `Retry-After` seconds',
      headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
      content: errors({
        still_rendering: { summary: 'Rendering', value: errorExample('The PDF is being rendered; ask again after Retry-After seconds') },
      }),
    }),
  );
