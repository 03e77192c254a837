// What must hold after a chaos run, counted from PostgreSQL, from what the simulated authorizers hold (GET
// /_control/issued/{taxId}) and from what the webhook receiver got. Each check returns figures for the report and
// the violations found (empty when the platform kept its promises).
import { refusedForNumbersInUse } from '@talao/amendments/create';
import { lostNumberToInvalidation } from '@talao/issuance/create';
import { WEBHOOK_EVENTS } from '@talao/webhooks';
import type { WebhookReceiver } from '@talao/webhooks/testing';
import type { ChaosCompany, ChaosPlatform } from './chaos-platform.js';
import { type Answered, codesIn } from './mixed-load.js';

/** Duplicate NF-e (204), duplicate with another key (539), duplicate event (573): never to reach a client or a record. */
export const DUPLICATE_CODES = ['204', '539', '573'];
const FINAL_INVOICE_STATES = ['issued', 'rejected', 'failed', 'cancelled'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface IssuedView {
  nfe: Array<{ key: string; model: string; series: number; number: number; events: Array<{ tpEvento: string; nSeqEvento: number }> }>;
  nfse: Array<{ key: string; dpsId: string; events: string[] }>;
  inutilized: Array<{ series: number; first: number; last: number }>;
}

/** Work still open anywhere: invoices processing, amendments, invalidations and manifestations pending, deliveries not delivered. */
export async function openWork(p: ChaosPlatform, companyIds: string[]) {
  const where = { companyId: { in: companyIds } };
  const [invoices, amendments, invalidations, manifestations, outbox, deliveries] = await Promise.all([
    p.prisma.invoice.count({ where: { ...where, status: 'processing' } }),
    p.prisma.amendment.count({ where: { ...where, status: 'pending' } }),
    p.prisma.invalidation.count({ where: { ...where, status: 'pending' } }),
    p.prisma.receivedManifestation.count({ where: { ...where, status: 'pending' } }),
    p.prisma.outboxEvent.count({ where: { ...where, publishedAt: null } }),
    p.prisma.webhookDelivery.count({ where: { ...where, status: { not: 'delivered' } } }),
  ]);
  return { invoices, amendments, invalidations, manifestations, outbox, deliveries };
}

/** Polls until nothing is open or `timeoutMs` passed; returns what is still open and how long it took. */
export async function settle(p: ChaosPlatform, companyIds: string[], timeoutMs: number) {
  const started = Date.now();
  for (;;) {
    const open = await openWork(p, companyIds);
    const total = Object.values(open).reduce((sum, n) => sum + n, 0);
    if (total === 0 || Date.now() - started > timeoutMs) return { open, ms: Date.now() - started };
    await sleep(1_000);
  }
}

export interface Findings {
  counts: Record<string, number>;
  violations: string[];
}

export async function checkInvariants(
  p: ChaosPlatform,
  companies: ChaosCompany[],
  receiver: WebhookReceiver,
  answers: Answered[],
): Promise<Findings> {
  const counts: Record<string, number> = {};
  const violations: string[] = [];
  const add = (name: string, n: number) => (counts[name] = (counts[name] ?? 0) + n);
  const ids = companies.map((c) => c.id);

  // 0 duplicate rejections surfaced: not in any answer, not in any record.
  const surfaced = answers.filter((a) => codesIn(a.body).some((code) => DUPLICATE_CODES.includes(code)));
  add('answers with 204/539/573', surfaced.length);
  for (const a of surfaced.slice(0, 5))
    violations.push(`answer ${a.operation} ${a.status} carries a duplicate code: ${JSON.stringify(a.body)}`);
  const recorded = {
    invoices: await p.prisma.invoice.count({ where: { companyId: { in: ids }, statusCode: { in: DUPLICATE_CODES } } }),
    submissions: await p.prisma.submission.count({ where: { companyId: { in: ids }, statusCode: { in: DUPLICATE_CODES } } }),
    amendments: await p.prisma.amendment.count({ where: { companyId: { in: ids }, statusCode: { in: DUPLICATE_CODES } } }),
    invalidations: await p.prisma.invalidation.count({ where: { companyId: { in: ids }, statusCode: { in: DUPLICATE_CODES } } }),
  };
  for (const [table, n] of Object.entries(recorded)) {
    add(`records with 204/539/573`, n);
    if (n > 0) violations.push(`${n} ${table} record a duplicate rejection (204/539/573)`);
  }
  const serverErrors = answers.filter((a) => a.status >= 500 && !(a.operation === 'pdf' && a.status === 503));
  add('5xx answers (besides PDF 503 Retry-After)', serverErrors.length);
  for (const a of serverErrors.slice(0, 5)) violations.push(`answer ${a.operation} ${a.status}: ${JSON.stringify(a.body)}`);

  for (const company of companies) {
    const invoices = await p.prisma.invoice.findMany({ where: { companyId: company.id } });
    const amendments = await p.prisma.amendment.findMany({ where: { companyId: company.id } });
    const invalidations = await p.prisma.invalidation.findMany({ where: { companyId: company.id } });
    add('invoices', invoices.length);
    for (const status of FINAL_INVOICE_STATES) add(`invoices ${status}`, invoices.filter((i) => i.status === status).length);
    add('amendments registered', amendments.filter((a) => a.status === 'registered').length);
    add('invalidations registered', invalidations.filter((i) => i.status === 'registered').length);

    // 0 invoices stuck outside a final state; nothing pending, nothing refused by the authorizer under chaos.
    for (const i of invoices.filter((i) => !FINAL_INVOICE_STATES.includes(i.status)))
      violations.push(`invoice ${i.id} (${i.documentType} ${i.number}) stuck in ${i.status}`);
    // …except the two ends of an NF-e racing its company's own invalidation of its number (docs/architecture.md,
    // "A number reserved before a filing"): the issuance refused before sending, or the range refused by the
    // invalidate job. Each leaves the number to the other.
    add('NF-e that lost the race for their number to an invalidation', invoices.filter(lostNumberToInvalidation).length);
    add('invalidations that lost the race for a number to an NF-e', invalidations.filter(refusedForNumbersInUse).length);
    for (const i of invoices.filter((i) => (i.status === 'rejected' || i.status === 'failed') && !lostNumberToInvalidation(i)))
      violations.push(`invoice ${i.id} (${i.documentType} ${i.number}) ${i.status}: ${i.statusCode} ${i.statusMessage}`);
    for (const a of amendments.filter((a) => a.status !== 'registered'))
      violations.push(`${a.kind} ${a.id} of invoice ${a.invoiceId} is ${a.status}: ${a.statusCode} ${a.statusMessage}`);
    for (const i of invalidations.filter((i) => i.status !== 'registered' && !refusedForNumbersInUse(i)))
      violations.push(`invalidation ${i.numberStart}–${i.numberEnd} is ${i.status}: ${i.statusCode} ${i.statusMessage}`);
    const manifestations = await p.prisma.receivedManifestation.findMany({ where: { companyId: company.id } });
    add('manifestations registered', manifestations.filter((m) => m.status === 'registered').length);
    for (const m of manifestations.filter((m) => m.status !== 'registered'))
      violations.push(
        `manifestation ${m.eventType} of received document ${m.documentId} is ${m.status}: ${m.statusCode} ${m.statusMessage}`,
      );

    // 0 duplicate documents or events at the simulator: it holds exactly the platform's authorized documents, and per
    // document exactly the events the platform registered.
    const held = (await p.control('GET', `/_control/issued/${company.taxId}`)).json as unknown as IssuedView;
    add('documents at the simulator', held.nfe.length + held.nfse.length);
    const authorized = invoices.filter((i) => i.status === 'issued' || i.status === 'cancelled');
    const ours = new Map(authorized.map((i) => [i.accessKey, i]));
    const simKeys = [...held.nfe.map((d) => d.key), ...held.nfse.map((d) => d.key)];
    const extra = simKeys.filter((k) => !ours.has(k));
    add('documents at the simulator without an authorized record', extra.length);
    if (extra.length > 0)
      violations.push(
        `simulator holds ${extra.length} documents of ${company.taxId} no authorized invoice owns: ${extra.slice(0, 3).join(', ')}`,
      );
    const missing = authorized.filter((i) => !simKeys.includes(i.accessKey ?? ''));
    if (missing.length > 0)
      violations.push(
        `${missing.length} authorized invoices unknown to the simulator: ${missing
          .slice(0, 3)
          .map((i) => i.id)
          .join(', ')}`,
      );
    const dpsIds = held.nfse.map((d) => d.dpsId);
    if (new Set(dpsIds).size !== dpsIds.length) violations.push(`simulator holds one DPS twice for ${company.taxId}`);

    const registeredBy = new Map<string, typeof amendments>();
    for (const a of amendments.filter((a) => a.status === 'registered'))
      registeredBy.set(a.invoiceId, [...(registeredBy.get(a.invoiceId) ?? []), a]);
    let simEvents = 0;
    for (const doc of held.nfe) {
      const invoice = ours.get(doc.key);
      if (!invoice) continue;
      simEvents += doc.events.length;
      const mine = registeredBy.get(invoice.id) ?? [];
      const expected = mine.map((a) => `${a.kind === 'cancellation' ? '110111' : '110110'}/${a.sequence}`).sort();
      const got = doc.events.map((e) => `${e.tpEvento}/${e.nSeqEvento}`).sort();
      if (JSON.stringify(expected) !== JSON.stringify(got))
        violations.push(`NF-e ${doc.key}: simulator events [${got.join(' ')}], platform registered [${expected.join(' ')}]`);
    }
    for (const doc of held.nfse) {
      const invoice = ours.get(doc.key);
      if (!invoice) continue;
      simEvents += doc.events.length;
      const mine = (registeredBy.get(invoice.id) ?? []).length;
      if (doc.events.length !== mine) violations.push(`NFS-e ${doc.key}: ${doc.events.length} events at the simulator, ${mine} registered`);
    }
    add('events at the simulator', simEvents);

    // Every NF-e number used (an invoice record) or voided (a registered invalidation); a number neither must not be
    // at the authorizer, and must be invalidable: proven by invalidating it through the API.
    const sequence = await p.prisma.numberSequence.findFirst({
      where: { companyId: company.id, environment: 'homologation', documentType: 'nfe', series: 1 },
    });
    const last = Number(sequence?.nextNumber ?? 1n) - 1;
    const used = new Set(invoices.filter((i) => i.documentType === 'nfe' && i.series === 1).map((i) => Number(i.number)));
    const voided = (n: number) =>
      invalidations.some((i) => i.status === 'registered' && i.series === 1 && Number(i.numberStart) <= n && n <= Number(i.numberEnd));
    const atSimulator = new Set(held.nfe.filter((d) => d.series === 1).map((d) => d.number));
    const gaps: number[] = [];
    for (let n = 1; n <= last; n++) if (!used.has(n) && !voided(n)) gaps.push(n);
    add('NF-e numbers reserved', last);
    add('NF-e numbers voided', Array.from({ length: last }, (_, k) => k + 1).filter(voided).length);
    add('NF-e numbers neither used nor voided', gaps.length);
    for (const n of gaps) {
      if (atSimulator.has(n)) {
        violations.push(`NF-e number ${n} of ${company.taxId} is at the authorizer but no invoice records it`);
        continue;
      }
      const answer = await p.api('POST', '/api/v1/invoices/invalidations', company.key, {
        series: 1,
        number_start: n,
        number_end: n,
        reason: 'Numeracao nao utilizada apurada na conferencia',
      });
      if (answer.status !== 201 && answer.status !== 202)
        violations.push(`number ${n} not invalidable: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    for (const range of held.inutilized)
      for (let n = range.first; n <= range.last; n++)
        if (used.has(n) && atSimulator.has(n)) violations.push(`NF-e number ${n} both voided and authorized at the simulator`);
  }

  // 100% of webhook deliveries made: every public event has its delivery, every delivery delivered and received.
  const events = await p.prisma.outboxEvent.findMany({ where: { companyId: { in: ids }, type: { in: [...WEBHOOK_EVENTS] } } });
  const deliveries = await p.prisma.webhookDelivery.findMany({ where: { companyId: { in: ids } } });
  const receivedIds = new Set(receiver.received.map((r) => String(r.headers['service-delivery-id'])));
  const deliveredEvents = new Set(deliveries.map((d) => d.eventId));
  add('webhook events', events.length);
  add('webhook deliveries', deliveries.length);
  add('webhook requests received (with repeats)', receiver.received.length);
  add('webhook deliveries received', deliveries.filter((d) => receivedIds.has(d.id)).length);
  const undelivered = events.filter((e) => !deliveredEvents.has(e.id));
  if (undelivered.length > 0)
    violations.push(
      `${undelivered.length} events without a delivery: ${undelivered
        .slice(0, 3)
        .map((e) => `${e.type} ${e.id}`)
        .join(', ')}`,
    );
  const notReceived = deliveries.filter((d) => d.status !== 'delivered' || !receivedIds.has(d.id));
  if (notReceived.length > 0)
    violations.push(
      `${notReceived.length} deliveries not received: ${notReceived
        .slice(0, 3)
        .map((d) => `${d.event} ${d.status}`)
        .join(', ')}`,
    );
  return { counts, violations };
}
