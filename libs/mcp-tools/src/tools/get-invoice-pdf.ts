// get_invoice_pdf: GET /api/v1/invoices/{access_key}/pdf — the DANFE / DANFSe as an embedded resource (base64 blob)
// with its size. Still rendering after the API's wait, it answers 503: a tool error saying when to ask again.
import { z } from 'zod';
import { segment } from '../api-client.js';
import { apiError } from '../tool-result.js';
import { accessKey, apiOutput, documentType, READS_ONLY, type ToolRegistration } from './tool-context.js';

export const registerGetInvoicePdf: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'get_invoice_pdf',
    {
      title: 'Download the invoice PDF',
      description: 'The DANFE (NF-e) or DANFSe (NFS-e) as a PDF resource, with its size in bytes.',
      inputSchema: z.object({ access_key: accessKey, document_type: documentType }),
      outputSchema: apiOutput.extend({
        uri: z.string().optional(),
        mime_type: z.string().optional(),
        size_bytes: z.number().int().optional(),
      }),
      annotations: READS_ONLY,
    },
    async ({ access_key: key, document_type }) => {
      const response = await api.request('GET', `api/v1/invoices/${segment(key)}/pdf`, { query: { document_type } });
      const error = apiError(response);
      if (error) return error;
      if (!response.contentType.includes('application/pdf')) {
        const body = response.json ?? {};
        return {
          content: [{ type: 'text', text: `The PDF is not ready yet (HTTP ${response.status}); ask again shortly.` }],
          structuredContent: { http_status: response.status, ...body },
        };
      }
      const uri = `talao://invoices/${key}/pdf`;
      const size = response.bytes.length;
      return {
        content: [
          { type: 'text', text: `PDF of ${key}: ${size} bytes` },
          { type: 'resource', resource: { uri, mimeType: 'application/pdf', blob: response.bytes.toString('base64') } },
        ],
        structuredContent: { http_status: response.status, uri, mime_type: 'application/pdf', size_bytes: size },
      };
    },
  );
};
