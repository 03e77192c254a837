// The mixed load of the chaos suite (and the soak): clients issuing NF-e and NFS-e, cancelling, filing correction
// letters, invalidating numbers ahead of the sequence, asking for received-invoice syncs, manifesting, reading PDFs.
// Every POST carries an Idempotency-Key and is sent again with it when the connection fails, as a careful integrator
// would; every answer is recorded for the checks afterwards.
import { randomUUID } from 'node:crypto';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { sampleNfse } from '../../contract/support/contract.js';
import type { ApiAnswer, ChaosCompany, ChaosPlatform } from './chaos-platform.js';

export type Operation =
  | 'issue_nfe'
  | 'issue_nfse'
  | 'cancel'
  | 'correct'
  | 'invalidate'
  | 'sync_received'
  | 'manifest'
  | 'pdf'
  | 'read_invoice'
  | 'list_invoices';

/** How often each operation is drawn (relative weights; an absent operation is never drawn). */
export type OperationWeights = Partial<Record<Operation, number>>;

export interface Answered {
  operation: Operation;
  status: number;
  body: Record<string, unknown>;
  ms: number;
  at: number;
}

/**
 * Recipient manifestation: awareness (210210) of a document received-sync collected, once per document (a second
 * awareness is refused locally with the authority's 573, which the invariants count as a surfaced duplicate).
 */
export const manifest = (p: ChaosPlatform, company: ChaosCompany, accessKey: string, idempotencyKey: string): Promise<ApiAnswer> =>
  p.api(
    'POST',
    `/api/v1/received-invoices/${accessKey}/manifestation`,
    company.key,
    { manifestation: '210210' },
    {
      'idempotency-key': idempotencyKey,
    },
  );

/** The chaos suite's mix: every write the platform has, at rates that keep each worker busy while it is killed. */
export const CHAOS_WEIGHTS: OperationWeights = {
  issue_nfe: 40,
  issue_nfse: 14,
  cancel: 10,
  correct: 10,
  invalidate: 3,
  sync_received: 3,
  manifest: 5,
  pdf: 10,
};

/**
 * An integrator's day, for the soak: mostly reads (the list, one invoice with the authorizer's view of it, PDFs of
 * documents already printed on authorization) around a steady trickle of every write. Each issuance is also a render
 * (PDF_RENDER_ON_AUTHORIZATION), at about a tenth of a core per DANFE on the reference machine: the chaos mix at 100
 * requests/s would ask the one pdf-renderer for ~50 renders a second, four times what two cores print. At 100
 * requests/s this is 4 issuances and ~5 renders a second beside everything else: with 5.5 issuances the 2-core
 * machine fell behind on renders after four minutes (measured, November 26).
 */
export const INTEGRATOR_WEIGHTS: OperationWeights = {
  list_invoices: 48,
  read_invoice: 32,
  pdf: 10,
  issue_nfe: 3,
  issue_nfse: 1,
  cancel: 1.5,
  correct: 1.5,
  invalidate: 0.5,
  sync_received: 1,
  manifest: 1.5,
};

const REASON = 'Pedido cancelado pelo cliente antes da entrega';
const CORRECTION = 'Onde se le volume 1 leia-se volumes 1 e 2 (embalagem dupla)';
const INVALIDATION_REASON = 'Numeracao pulada por falha no sistema de faturamento';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const take = <T>(items: T[]): T | undefined => items.splice(Math.floor(Math.random() * items.length), 1)[0];

/** Documents the load has seen issued, per company, by what may still be done to them. */
interface Pools {
  toCancel: Array<{ key: string; documentType: 'nfe' | 'nfse' }>;
  toCorrect: string[];
  printable: Array<{ key: string; documentType: 'nfe' | 'nfse' }>;
}

export class MixedLoad {
  readonly answers: Answered[] = [];
  /** Connection failures on the way (retried with the same Idempotency-Key). */
  networkRetries = 0;
  private readonly pools = new Map<string, Pools>();
  /** Received documents already manifested by this load (one awareness each). */
  private readonly manifested = new Set<string>();
  private readonly pdfs = new Map<string, { key: string; documentType: 'nfe' | 'nfse'; companyKey: string; printed: boolean }>();

  constructor(
    private readonly p: ChaosPlatform,
    private readonly companies: ChaosCompany[],
    private readonly options: {
      weights?: OperationWeights;
      /** Keep each answer's body (the chaos invariants read them); a long soak keeps only the bodies of 5xx answers. */
      bodies?: 'all' | 'errors';
    } = {},
  ) {
    for (const c of companies) this.pools.set(c.id, { toCancel: [], toCorrect: [], printable: [] });
  }

  /** Runs `clients` loops until `until()` says stop; `pace` (ms between operations per client) for a fixed rate. */
  async run(clients: number, until: () => boolean, pace = 0): Promise<void> {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (!until()) {
          const started = Date.now();
          await this.one();
          if (pace > 0) await sleep(Math.max(0, pace - (Date.now() - started)));
        }
      }),
    );
  }

  /** Every document whose PDF the load asked for, and whether one answer was the PDF. */
  pdfRequests() {
    return [...this.pdfs.values()];
  }

  /** One operation of the weighted mix, on a random company. */
  async one(): Promise<void> {
    const company = pick(this.companies)!;
    const operation = this.choose();
    const started = Date.now();
    const answer: (ApiAnswer & { ms?: number }) | undefined = await this.perform(operation, company);
    // The HTTP exchange's own time (send's).
    if (!answer) return;
    const body = this.options.bodies === 'errors' && answer.status < 500 ? {} : answer.body;
    this.answers.push({ operation, status: answer.status, body, ms: answer.ms ?? Date.now() - started, at: started });
  }

  private choose(): Operation {
    const entries = Object.entries(this.options.weights ?? CHAOS_WEIGHTS) as Array<[Operation, number]>;
    let draw = Math.random() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [operation, weight] of entries) {
      draw -= weight;
      if (draw < 0) return operation;
    }
    return entries[0]![0];
  }

  private async perform(operation: Operation, c: ChaosCompany): Promise<ApiAnswer | undefined> {
    const pools = this.pools.get(c.id)!;
    switch (operation) {
      case 'issue_nfe':
      case 'issue_nfse': {
        const documentType = operation === 'issue_nfe' ? 'nfe' : 'nfse';
        const answer =
          documentType === 'nfe'
            ? await this.post(c, '/api/v1/invoices', sampleNfeRequest())
            : await this.post(c, '/api/v1/invoices', sampleNfse());
        if (answer.status === 201 && answer.body['status'] === 'issued') {
          const key = String(answer.body['access_key']);
          pools.printable.push({ key, documentType });
          // One lane per document, so a correction never races a cancellation of the same document.
          const lane = Math.random();
          if (lane < 0.3) pools.toCancel.push({ key, documentType });
          else if (lane < 0.6 && documentType === 'nfe') pools.toCorrect.push(key);
        }
        return answer;
      }
      case 'cancel': {
        const target = take(pools.toCancel);
        if (!target) return undefined;
        return this.post(c, `/api/v1/invoices/${target.key}/cancel?document_type=${target.documentType}`, { reason: REASON });
      }
      case 'correct': {
        const key = take(pools.toCorrect);
        if (!key) return undefined;
        const answer = await this.post(c, `/api/v1/invoices/${key}/correction`, { correction: CORRECTION });
        pools.toCorrect.push(key); // may be corrected again (up to 20 letters)
        return answer;
      }
      case 'invalidate': {
        // The next number or two of the sequence (a range may not start ahead of it: 422), racing the company's own
        // NF-e issuances for them: a number is then either issued (the range refused, 409) or voided (the issuance
        // skips it, or ends `failed` without reaching SEFAZ when it had reserved it just before the filing).
        const sequence = await this.p.prisma.numberSequence.findFirst({
          where: { companyId: c.id, environment: 'homologation', documentType: 'nfe', series: 1 },
        });
        const next = Number(sequence?.nextNumber ?? 1n);
        return this.post(c, '/api/v1/invoices/invalidations', {
          series: 1,
          number_start: next,
          number_end: next + Math.floor(Math.random() * 2),
          reason: INVALIDATION_REASON,
        });
      }
      case 'sync_received':
        return this.post(c, '/api/v1/received-invoices/sync', undefined);
      case 'manifest': {
        const received = await this.p.prisma.receivedDocument.findFirst({
          where: { companyId: c.id, documentType: 'nfe', accessKey: { notIn: [...this.manifested] } },
          orderBy: { createdAt: 'desc' },
        });
        if (!received) return undefined;
        this.manifested.add(received.accessKey);
        const idempotencyKey = randomUUID(); // the same on a retry after a lost connection
        return this.send(() => manifest(this.p, c, received.accessKey, idempotencyKey));
      }
      case 'read_invoice': {
        const target = pick(pools.printable);
        if (!target) return undefined;
        return this.send(() => this.p.api('GET', `/api/v1/invoices/${target.key}?document_type=${target.documentType}`, c.key));
      }
      case 'list_invoices':
        return this.send(() => this.p.api('GET', '/api/v1/invoices?page_size=20', c.key));
      case 'pdf': {
        const target = pick(pools.printable);
        if (!target) return undefined;
        const answer = await this.send(() =>
          this.p.api('GET', `/api/v1/invoices/${target.key}/pdf?document_type=${target.documentType}`, c.key),
        );
        const asked = this.pdfs.get(target.key) ?? { ...target, companyKey: c.key, printed: false };
        this.pdfs.set(target.key, { ...asked, printed: asked.printed || answer.status === 200 });
        return answer;
      }
    }
  }

  private post(c: ChaosCompany, path: string, body: unknown): Promise<ApiAnswer> {
    const headers = { 'idempotency-key': randomUUID() };
    return this.send(() => this.p.api('POST', path, c.key, body, headers));
  }

  /** The gateway is never killed, but a pooled keep-alive socket can race its idle timeout: send again then. */
  private async send(call: () => Promise<ApiAnswer>): Promise<ApiAnswer & { ms: number }> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return { ...(await call()), ms: Date.now() - started };
      } catch (error) {
        if (attempt >= 5) throw error;
        this.networkRetries += 1;
        await sleep(100 * attempt);
      }
    }
  }
}

/** Status counts per operation, e.g. { issue_nfe: { 201: 80, 202: 3 } }. */
export function statusHistogram(answers: Answered[]): Record<string, Record<number, number>> {
  const histogram: Record<string, Record<number, number>> = {};
  for (const a of answers) {
    const row = (histogram[a.operation] ??= {});
    row[a.status] = (row[a.status] ?? 0) + 1;
  }
  return histogram;
}

/** Every authorizer code an answer carries (status_code, code, detail.code…), wherever it is nested. */
export function codesIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => codesIn(v, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'status_code' || k === 'code') && (typeof v === 'string' || typeof v === 'number')) found.push(String(v));
      else codesIn(v, found);
    }
  }
  return found;
}
