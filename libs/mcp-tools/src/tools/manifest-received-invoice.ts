// manifest_received_invoice: POST /api/v1/received-invoices/{access_key}/manifestation (the recipient's position on an
// NF-e issued against the company).
import { z } from 'zod';
import { segment } from '../api-client.js';
import { apiResult } from '../tool-result.js';
import { accessKey, apiOutput, CHANGES_A_DOCUMENT, eventText, type ToolRegistration } from './tool-context.js';

/** SPEC.md "Recipient manifestation": the four event codes, as the body field `manifestation` carries them. */
export const MANIFESTATIONS = ['210210', '210200', '210220', '210240'] as const;

export const registerManifestReceivedInvoice: ToolRegistration = (server, { api }) => {
  server.registerTool(
    'manifest_received_invoice',
    {
      title: 'Answer a received NF-e (manifestação do destinatário)',
      description:
        'Files the company’s position on an NF-e it received: 210210 awareness (ciência: settles nothing and obliges a conclusive ' +
        'code afterwards), 210200 confirmation, 210220 unknown ' +
        'operation (desconhecimento) or 210240 operation not performed (with a justification). Awareness within 10 days of ' +
        'authorization, conclusive codes within 90 (180 for NF-e authorized before 2026-06-01), one correction within 30 days; ' +
        'a confirmation stops the issuer from cancelling. A refusal by these rules comes back with the authority’s code (596 ' +
        'late, 655, 573). Show the received invoice (list_received_invoices) and ask the person to confirm first.',
      inputSchema: z.object({
        access_key: accessKey,
        manifestation: z.enum(MANIFESTATIONS).describe('The event code filed at SEFAZ.'),
        justification: eventText(15, 255, 'Required for 210240 only').optional(),
      }),
      outputSchema: apiOutput,
      annotations: CHANGES_A_DOCUMENT,
    },
    async ({ access_key: key, ...body }) =>
      apiResult(await api.request('POST', `api/v1/received-invoices/${segment(key)}/manifestation`, { body }), (answer) => {
        const filed = (answer['manifestation'] ?? {}) as Record<string, unknown>;
        return `Manifestation ${body.manifestation} on ${key}: ${String(filed['status'] ?? 'filed')}, the invoice now ${String(answer['state'] ?? 'unknown')}`;
      }),
  );
};
