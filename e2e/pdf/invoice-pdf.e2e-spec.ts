// GET /invoices/{access_key}/pdf through real processes: the simulator authorizes, the issuer issues, the gateway
// enqueues the render and the pdf-renderer prints it on Chromium; the PDFs are read back with poppler and zbar, tools
// that share nothing with the renderer. Needs Chromium, poppler-utils and zbar-tools (CI installs them).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { jest } from '@jest/globals';
import { nfseConsultationUrl } from '@talao/rendering';
import { PdfInspection } from '@talao/rendering/testing';
import { issue, rejectedNfe, sampleNfse } from '../contract/support/contract.js';
import { startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(180_000);

// A 20 s window: a first render on a loaded 2-core machine takes seconds; the 503 test waits it out once.
const p = startedForFile('platform', () =>
  startPlatform('pdf', { pdfRendererEnv: { PDF_RENDERER_PAGES: '2' }, gatewayEnv: { PDF_WAIT_MS: '20000' }, canceller: true }),
);
let company: TestCompany;
let other: TestCompany;
let nfeKey: string;
let nfeProtocol: string;
let nfseKey: string;
let rejectedId: string;

interface PdfAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/**
 * One GET on a connection of its own (node:http, no agent): fetch's pooled keep-alive sockets race the gateway's
 * 5 s keep-alive timeout when a render kept the test busy ("other side closed").
 */
function getPdf(path: string, key: string, headers: Record<string, string> = {}): Promise<PdfAnswer> {
  return new Promise((resolve, reject) => {
    const request = get(`${p.gatewayUrl}${path}`, { agent: false, headers: { authorization: `Bearer ${key}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') answerHeaders.set(name, value);
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, bytes: Buffer.concat(chunks) });
      });
    });
    request.on('error', reject);
  });
}

const json = (answer: PdfAnswer) => JSON.parse(answer.bytes.toString('utf8')) as { detail: unknown };

function inspect(bytes: Buffer, check: (pdf: PdfInspection) => void): void {
  const pdf = new PdfInspection(bytes);
  try {
    check(pdf);
  } finally {
    pdf.dispose();
  }
}

beforeAll(async () => {
  company = await p.createCompany();
  other = await p.createCompany();
  const nfe = await issue(p, company);
  if (nfe.status !== 201) throw new Error(`fixture NF-e: ${nfe.status} ${nfe.text}`);
  nfeKey = String(nfe.body['access_key']);
  nfeProtocol = String(nfe.body['protocol']);
  const nfse = await issue(p, company, sampleNfse());
  if (nfse.status !== 201) throw new Error(`fixture NFS-e: ${nfse.status} ${nfse.text}`);
  nfseKey = String(nfse.body['access_key']);
  rejectedId = String(((await rejectedNfe(p, company)).body['detail'] as Record<string, unknown>)['invoice_id']);
  await p.sim.control('DELETE', '/_control/faults');
});

describe('DANFE', () => {
  let etag: string;

  it('is rendered on the first GET: A4, the key as text and as CODE-128, the issuer and the protocol', async () => {
    const answer = await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfe`, company.homologationKey);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${nfeKey}.pdf"`);
    etag = answer.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    inspect(answer.bytes, (pdf) => {
      expect(pdf.pageCount()).toBe(1);
      expect(pdf.info()['Page size']).toMatch(/\(A4\)/);
      const text = pdf.text(1);
      expect(text.replace(/\s/g, '')).toContain(nfeKey);
      expect(text).toContain('EMPRESA EMISSORA LTDA');
      expect(text).toContain(nfeProtocol);
      expect(text).toContain('SEM VALOR FISCAL');
      expect(pdf.symbols(1).filter((symbol) => symbol.type === 'CODE-128')).toEqual([{ type: 'CODE-128', data: nfeKey }]);
    });
  });

  it('is served from storage afterwards, with the same ETag, and If-None-Match answers 304', async () => {
    const again = await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfe`, company.homologationKey);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(etag);
    const rows = await p.prisma.documentPdf.findMany({ where: { companyId: company.id } });
    expect(rows.filter((row) => row.version.includes('authorized'))).toHaveLength(rows.length);
    const notModified = await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfe`, company.homologationKey, {
      'if-none-match': etag,
    });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect(notModified.headers.get('etag')).toBe(etag);
  });

  it('prints the latest correction letter once it is registered (a new version of the PDF)', async () => {
    const letter = 'Onde se le volume 1 leia-se volumes 1 e 2 (Talao CC-e)';
    const corrected = await p.api('POST', `/api/v1/invoices/${nfeKey}/correction`, {
      key: company.homologationKey,
      body: { correction: letter },
    });
    expect(corrected.status).toBe(200);
    const answer = await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfe`, company.homologationKey, { 'if-none-match': etag });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).not.toBe(etag);
    inspect(answer.bytes, (pdf) => {
      const text = pdf.rawText(1).replace(/\s+/g, ' ');
      expect(text).toContain('CARTA DE CORREÇÃO ELETRÔNICA Nº 1');
      expect(text).toContain('(Talao CC-e)');
    });
  });

  it('is rendered again, marked CANCELADA, once the invoice is cancelled; the old ETag no longer matches', async () => {
    // Cancelled through the API and the canceller: the row's status (and updated_at with it) moves, so the PDF's version.
    const cancelled = await p.api('POST', `/api/v1/invoices/${nfeKey}/cancel`, {
      key: company.homologationKey,
      body: { reason: 'Pedido cancelado pelo cliente antes da entrega' },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    const answer = await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfe`, company.homologationKey, { 'if-none-match': etag });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).not.toBe(etag);
    inspect(answer.bytes, (pdf) => {
      expect(pdf.rawText(1)).toContain('CANCELADA');
      expect(pdf.symbols(1).filter((symbol) => symbol.type === 'CODE-128')).toEqual([{ type: 'CODE-128', data: nfeKey }]);
    });
  });
});

describe('DANFSe', () => {
  it('is our own rendering by default: the 50-digit key and the QR code of the national consultation', async () => {
    const answer = await getPdf(`/api/v1/invoices/${nfseKey}/pdf?document_type=nfse`, company.homologationKey);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${nfseKey}.pdf"`);
    inspect(answer.bytes, (pdf) => {
      expect(pdf.pageCount()).toBe(1);
      expect(pdf.info()['Page size']).toMatch(/\(A4\)/);
      expect(pdf.text(1).replace(/\s/g, '')).toContain(nfseKey);
      expect(pdf.symbols(1).filter((symbol) => symbol.type === 'QR-Code')).toEqual([
        { type: 'QR-Code', data: nfseConsultationUrl(nfseKey) },
      ]);
    });
  });

  it('source=authorizer returns the national environment’s official DANFSe, and 502 while it is unavailable', async () => {
    const official = await getPdf(`/api/v1/invoices/${nfseKey}/pdf?document_type=nfse&source=authorizer`, company.homologationKey);
    expect(official.status).toBe(200);
    expect(official.headers.get('content-type')).toBe('application/pdf');
    expect(official.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await p.sim.control('PUT', '/_control/faults/ADN', { outage: true });
    try {
      const down = await getPdf(`/api/v1/invoices/${nfseKey}/pdf?document_type=nfse&source=authorizer`, company.homologationKey);
      expect(down.status).toBe(502);
      // As every 502 of the API: detail.message (SPEC.md "Errors").
      expect(json(down).detail).toEqual({ message: expect.stringMatching(/^The national environment is unavailable: /) });
    } finally {
      await p.sim.control('DELETE', '/_control/faults');
    }
  });
});

describe('refusals', () => {
  it('422 without document_type, and for source=authorizer on an NF-e', async () => {
    const missing = await getPdf(`/api/v1/invoices/${nfeKey}/pdf`, company.homologationKey);
    expect(missing.status).toBe(422);
    expect(json(missing).detail).toMatchObject({ code: 'FIELD_REQUIRED', field: 'document_type' });
    const nfeOfficial = await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfe&source=authorizer`, company.homologationKey);
    expect(nfeOfficial.status).toBe(422);
  });

  it('404 for another company’s key (and for the wrong document type)', async () => {
    expect((await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfe`, other.homologationKey)).status).toBe(404);
    expect((await getPdf(`/api/v1/invoices/${nfeKey}/pdf?document_type=nfse`, company.homologationKey)).status).toBe(404);
  });

  it('409 with detail for a rejected attempt', async () => {
    const answer = await getPdf(`/api/v1/invoices/${rejectedId}/pdf?document_type=nfe`, company.homologationKey);
    expect(answer.status).toBe(409);
    expect(String(json(answer).detail)).toMatch(/not authorized \(status rejected\)/);
  });
});

describe('the renderer', () => {
  it('survives a killed Chromium: relaunched, and the next render completes', async () => {
    const rendererPid = p.pdfRenderer()!.child.pid!;
    const children = execFileSync('pgrep', ['-P', String(rendererPid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    const chromium = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium'));
    expect(chromium).toBeDefined();
    process.kill(chromium!, 'SIGKILL');
    const fresh = await issue(p, company);
    expect(fresh.status).toBe(201);
    const answer = await getPdf(`/api/v1/invoices/${String(fresh.body['access_key'])}/pdf?document_type=nfe`, company.homologationKey);
    expect(answer.status).toBe(200);
    expect(answer.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('rendering on authorization', () => {
  it('stores the PDF of a newly authorized invoice before anyone asks for it', async () => {
    const fresh = await issue(p, company);
    expect(fresh.status).toBe(201);
    const invoiceId = String(fresh.body['invoice_id']);
    const deadline = Date.now() + 60_000;
    let stored = await p.prisma.documentPdf.findUnique({ where: { invoiceId }, select: { version: true } });
    while (!stored && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      stored = await p.prisma.documentPdf.findUnique({ where: { invoiceId }, select: { version: true } });
    }
    expect(stored?.version).toMatch(/^r2\.authorized\./);
  });
});

describe('without a renderer', () => {
  it('a PDF not rendered yet answers 503 with Retry-After once PDF_WAIT_MS has passed', async () => {
    await p.pdfRenderer()!.kill('SIGTERM');
    const fresh = await issue(p, company);
    expect(fresh.status).toBe(201);
    const started = Date.now();
    const answer = await getPdf(`/api/v1/invoices/${String(fresh.body['access_key'])}/pdf?document_type=nfe`, company.homologationKey);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(Date.now() - started).toBeGreaterThanOrEqual(19_000);
    expect(String(json(answer).detail)).toMatch(/being rendered/);
  });
});
