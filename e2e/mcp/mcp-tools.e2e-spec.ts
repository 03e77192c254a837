// The MCP app end to end: the SDK's own client over streamable HTTP with a company API key, against the MCP app, the
// gateway, the issuer, the canceller, the pdf-renderer and the authorizer simulator as real processes. Each tool's
// answer is checked against what the REST API itself says.
import { jest } from '@jest/globals';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { type Platform, startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { installedChromium } from '../support/installed-chromium.js';
import { connectClient, listToolsWithoutCredentials, type RunningMcp, startMcp } from './support.js';

jest.setTimeout(120_000);

const CHANGING = [
  'issue_invoice',
  'reissue_invoice',
  'cancel_invoice',
  'correct_invoice',
  'invalidate_numbering',
  'manifest_received_invoice',
];
const READING = [
  'consult_invoice',
  'list_invoices',
  'get_invoice_pdf',
  'get_invoice_submissions',
  'list_received_invoices',
  'validate_invoice_payload',
];
const PROMPTS = [
  'issue_nfse',
  'issue_nfe',
  'recent_invoices',
  'diagnose_rejection',
  'inspect_invoice',
  'correct_nfe',
  'manifest_received',
  'cancel_invoice_prompt',
];
const REASON = 'Pedido cancelado pelo cliente antes da entrega';

const withPdf = installedChromium() !== undefined;

let p: Platform;
let company: TestCompany;
let mcp: RunningMcp;
let client: Client;

beforeAll(async () => {
  p = await startPlatform('mcp', {
    canceller: true,
    ...(withPdf && { pdfRendererEnv: {} }),
    gatewayEnv: { PDF_WAIT_MS: '20000', AMENDMENT_WAIT_MS: '8000' },
  });
  company = await p.createCompany();
  mcp = await startMcp(p);
  client = await connectClient(mcp.url, company.homologationKey);
});

afterAll(async () => {
  await client?.close();
  await mcp?.process.kill('SIGTERM');
  await p?.stop();
});

async function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<CallToolResult> {
  return (await on.callTool({ name, arguments: args })) as CallToolResult;
}
const structured = (result: CallToolResult) => (result.structuredContent ?? {}) as Record<string, unknown>;
const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('discovery', () => {
  it('lists the 12 tools of SPEC.md with their annotations and input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...CHANGING, ...READING].sort());
    for (const tool of tools) {
      if (CHANGING.includes(tool.name)) {
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
      } else {
        expect(tool.annotations?.readOnlyHint).toBe(true);
      }
      expect(tool.outputSchema).toBeDefined();
    }
    const required = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema.required ?? [];
    expect(required('issue_invoice').sort()).toEqual(['client_name', 'document_type', 'items', 'tax_id']);
    expect(required('cancel_invoice').sort()).toEqual(['access_key', 'document_type', 'reason']);
    expect(required('invalidate_numbering').sort()).toEqual(['number_end', 'number_start', 'reason', 'series']);
    expect(required('manifest_received_invoice').sort()).toEqual(['access_key', 'manifestation']);
    expect(required('validate_invoice_payload').sort()).toEqual(['document_type', 'items']);
    expect(required('list_invoices')).toEqual([]);
    const issue = tools.find((tool) => tool.name === 'issue_invoice')!;
    expect(Object.keys(issue.inputSchema.properties ?? {})).toContain('idempotency_key');
  });

  it('lists the 8 prompts; each renders with its arguments and asks to read back before changing anything', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([...PROMPTS].sort());
    const cancel = await client.getPrompt({
      name: 'cancel_invoice_prompt',
      arguments: { access_key: '3'.repeat(44), document_type: 'nfe', reason: REASON },
    });
    const cancelText = (cancel.messages[0]!.content as { text: string }).text;
    expect(cancelText).toContain('consult_invoice');
    expect(cancelText).toContain('3'.repeat(44));
    expect(cancelText).toMatch(/confirm/i);
    const issue = await client.getPrompt({ name: 'issue_nfe', arguments: { client_name: 'Maria' } });
    const issueText = (issue.messages[0]!.content as { text: string }).text;
    expect(issueText).toContain('validate_invoice_payload');
    expect(issueText.indexOf('validate_invoice_payload')).toBeLessThan(issueText.indexOf('issue_invoice'));
  });
  it('every prompt renders with its arguments and names a read-back tool (validate, consult or list) to call first', async () => {
    const { prompts } = await client.listPrompts();
    const values: Record<string, string> = {
      document_type: 'nfe',
      access_key: '3'.repeat(44),
      invoice_id: '00000000-0000-4000-8000-000000000000',
    };
    for (const prompt of prompts) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((arg) => [arg.name, values[arg.name] ?? `value of ${arg.name}`]));
      const rendered = await client.getPrompt({ name: prompt.name, arguments: args });
      const body = (rendered.messages[0]!.content as { text: string }).text;
      for (const value of Object.values(args)) expect(body).toContain(value);
      expect(body).toMatch(/validate_invoice_payload|consult_invoice|list_invoices|list_received_invoices|get_invoice_submissions/);
    }
  });
});

describe('validate_invoice_payload', () => {
  it('returns every error, locally', async () => {
    const body = sampleNfeRequest();
    delete body['client_name'];
    delete body['tax_id'];
    const result = await call('validate_invoice_payload', { ...body, issuer_tax_regime: 'normal' });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ valid: false });
    const errors = structured(result)['errors'] as Array<Record<string, unknown>>;
    expect(errors.map((error) => [error['code'], error['field']])).toEqual([
      ['FIELD_REQUIRED', 'client_name'],
      ['FIELD_REQUIRED', 'tax_id'],
    ]);
  });

  it('accepts the request the API accepts, and the same request breaking two rules gives both errors', async () => {
    const valid = await call('validate_invoice_payload', { ...sampleNfeRequest(), issuer_tax_regime: 'normal' });
    expect(structured(valid)).toMatchObject({ valid: true, errors: [] });
    const body = sampleNfeRequest();
    body['tax_id'] = '123';
    const items = body['items'] as Array<Record<string, unknown>>;
    items[0]!['amount'] = '999999.99';
    const broken = await call('validate_invoice_payload', { ...body, issuer_tax_regime: 'normal' });
    const codes = (structured(broken)['errors'] as Array<Record<string, unknown>>).map((error) => error['code']);
    expect(codes.length).toBeGreaterThanOrEqual(2);
    expect(codes).toContain('ITEM_TOTAL_MISMATCH');
  });
});

describe('issuing, reading and cancelling an NF-e through the tools', () => {
  let invoiceId: string;
  let accessKey: string;

  it('issue_invoice: 201 issued; the same idempotency_key answers the same invoice', async () => {
    const result = await call('issue_invoice', { ...sampleNfeRequest(), idempotency_key: 'mcp-e2e-issue-1' });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ http_status: 201, status: 'issued', document_type: 'nfe' });
    invoiceId = String(structured(result)['invoice_id']);
    accessKey = String(structured(result)['access_key']);
    expect(accessKey).toMatch(/^\d{44}$/);
    expect(text(result)).toContain(accessKey);
    const again = await call('issue_invoice', { ...sampleNfeRequest(), idempotency_key: 'mcp-e2e-issue-1' });
    expect(structured(again)['invoice_id']).toBe(invoiceId);
    expect(await p.prisma.invoice.count({ where: { companyId: company.id } })).toBe(1);
  });

  it('issue_invoice: a request the API refuses is a tool error carrying its detail', async () => {
    const result = await call('issue_invoice', { ...sampleNfeRequest(), tax_id: '123' });
    expect(result.isError).toBe(true);
    expect(structured(result)['http_status']).toBe(422);
    expect(text(result)).toContain('tax_id');
  });

  it('consult_invoice, list_invoices and get_invoice_submissions read what the REST API answers', async () => {
    const consulted = await call('consult_invoice', { access_key: accessKey, document_type: 'nfe' });
    const rest = await p.api('GET', `/api/v1/invoices/${accessKey}?document_type=nfe`, { key: company.homologationKey });
    expect(structured(consulted)['invoice']).toEqual(rest.body['invoice']);
    expect(structured(consulted)).toMatchObject({ http_status: 200, invoice: { status: 'issued' } });

    const listed = await call('list_invoices', { document_type: 'nfe' });
    expect(structured(listed)).toMatchObject({ http_status: 200, total: 1 });
    // The answer is in `content` too, for hosts that give the model nothing else (MCP: structured content SHOULD be
    // serialized in a TextContent block as well).
    expect(listed.content[1]).toEqual({ type: 'text', text: JSON.stringify(structured(listed)) });
    expect((structured(listed)['data'] as Array<Record<string, unknown>>).map((row) => row['invoice_id'])).toEqual([invoiceId]);

    const history = await call('get_invoice_submissions', { invoice_id: invoiceId });
    const rows = structured(history)['data'] as Array<Record<string, unknown>>;
    expect(rows.map((row) => row['operation'])).toEqual(['NFeAutorizacao4']);
  });

  it('list_received_invoices reads GET /received-invoices as the REST API answers it', async () => {
    const listed = await call('list_received_invoices', { document_type: 'nfe', page_size: 10 });
    const rest = await p.api('GET', '/api/v1/received-invoices?document_type=nfe&page_size=10', { key: company.homologationKey });
    expect(rest.status).toBe(200);
    expect(listed.isError).toBeFalsy();
    expect(structured(listed)).toEqual({ http_status: 200, ...rest.body });
    const filters = { manifestation_state: 'none', awaiting_conclusive: 'true', form: 'summary', issued_from: '2026-01-01' };
    const filtered = await call('list_received_invoices', filters);
    const restFiltered = await p.api('GET', `/api/v1/received-invoices?${new URLSearchParams(filters).toString()}`, {
      key: company.homologationKey,
    });
    expect(restFiltered.status).toBe(200);
    expect(structured(filtered)).toEqual({ http_status: 200, ...restFiltered.body });
    const refused = await call('list_received_invoices', { issuer_tax_id: '12.345' });
    expect(refused.isError).toBe(true);
    expect(structured(refused)['http_status']).toBe(422);
  });

  (withPdf ? it : it.skip)('get_invoice_pdf: the DANFE as an embedded PDF resource with its size', async () => {
    const result = await call('get_invoice_pdf', { access_key: accessKey, document_type: 'nfe' });
    expect(result.isError).toBeFalsy();
    const resource = result.content.find((part) => part.type === 'resource');
    expect(resource).toBeDefined();
    const { mimeType, blob } = (resource as { resource: { mimeType: string; blob: string } }).resource;
    expect(mimeType).toBe('application/pdf');
    const bytes = Buffer.from(blob, 'base64');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(structured(result)).toMatchObject({ http_status: 200, mime_type: 'application/pdf', size_bytes: bytes.length });
  });

  it('cancel_invoice: cancelled at the authorizer; a second cancel is a tool error with the API detail', async () => {
    const result = await call('cancel_invoice', {
      access_key: accessKey,
      document_type: 'nfe',
      reason: REASON,
      idempotency_key: 'mcp-e2e-c1',
    });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ http_status: 200, status: 'cancelled', invoice_id: invoiceId });
    expect((await p.prisma.invoice.findUniqueOrThrow({ where: { id: invoiceId } })).status).toBe('cancelled');

    const again = await call('cancel_invoice', { access_key: accessKey, document_type: 'nfe', reason: REASON });
    expect(again.isError).toBe(true);
    expect(structured(again)['http_status']).toBe(409);
    expect(text(again)).toMatch(/409/);
  });

  it('text an event cannot carry is refused by the tool before the API ("…", curly quotes, emoji)', async () => {
    const refused = await call('cancel_invoice', { access_key: accessKey, document_type: 'nfe', reason: 'Cliente desistiu… da compra' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/Latin-1/);
  });
});

describe('credentials', () => {
  it('no Authorization header → 401 JSON with a detail, before any MCP handling', async () => {
    const response = await listToolsWithoutCredentials(mcp.url);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await response.json()) as Record<string, unknown>)['detail']).toMatch(/API key/);
  });

  it('a key the API does not know → 401 at the MCP entry with the API’s detail: no tool listed or run', async () => {
    const response = await listToolsWithoutCredentials(mcp.url, 'Bearer not-a-real-key');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const { detail } = (await response.json()) as { detail: string };
    const api = await fetch(`${p.gatewayUrl}/api/v1/me`, { headers: { authorization: 'Bearer not-a-real-key' } });
    expect(detail).toBe(((await api.json()) as { detail: string }).detail);
  });

  it('each request uses its own key: the production key sees no homologation invoice', async () => {
    const production = await connectClient(mcp.url, company.productionKey);
    try {
      const listed = await call('list_invoices', {}, production);
      expect(structured(listed)).toMatchObject({ http_status: 200, total: 0 });
    } finally {
      await production.close();
    }
  });
});

describe('the other changing tools on the endpoints that exist', () => {
  it('issue_invoice rejected by the authorizer → tool error with its message; reissue_invoice → issued under a new number', async () => {
    await p.sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '778', count: 1 } });
    const rejected = await call('issue_invoice', sampleNfeRequest());
    expect(rejected.isError).toBe(true);
    expect(structured(rejected)['http_status']).toBe(502);
    const detail = structured(rejected)['detail'] as Record<string, unknown>;
    expect(text(rejected)).toContain(String(detail['message']));
    const rejectedId = String(detail['invoice_id']);

    const reissued = await call('reissue_invoice', { invoice_id: rejectedId });
    expect(reissued.isError).toBeFalsy();
    expect(structured(reissued)).toMatchObject({ http_status: 201, status: 'issued' });
    expect(structured(reissued)['invoice_id']).not.toBe(rejectedId);
    const twice = await call('reissue_invoice', { invoice_id: rejectedId });
    expect(twice.isError).toBe(true);
    expect(structured(twice)['http_status']).toBe(409);
  });

  it('correct_invoice files a correction letter that consult_invoice then lists', async () => {
    const issued = await call('issue_invoice', sampleNfeRequest());
    const key = String(structured(issued)['access_key']);
    const correction = 'Corrige a descricao do produto para caneta azul esferografica';
    const result = await call('correct_invoice', { access_key: key, correction });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ http_status: 200, status: 'issued' });
    const consulted = await call('consult_invoice', { access_key: key, document_type: 'nfe' });
    const amendments = structured(consulted)['amendments'] as Array<Record<string, unknown>>;
    expect(amendments).toEqual([expect.objectContaining({ kind: 'correction', text: correction, status: 'registered' })]);
  });

  it('invalidate_numbering registers a range ahead of the sequence at SEFAZ', async () => {
    const listed = await call('list_invoices', { document_type: 'nfe', page_size: 100 });
    const highest = Math.max(...(structured(listed)['data'] as Array<Record<string, unknown>>).map((row) => Number(row['number'])));
    const result = await call('invalidate_numbering', {
      series: 1,
      number_start: highest + 1,
      number_end: highest + 2,
      reason: 'Numeracao pulada por falha no sistema de faturamento',
    });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ http_status: 201, status: 'registered', number_start: highest + 1 });
    expect(await p.prisma.invalidation.count({ where: { companyId: company.id } })).toBe(1);
  });
});
