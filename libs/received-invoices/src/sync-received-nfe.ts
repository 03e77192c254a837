// One distribution sync of a company in one environment (NF-e, NFeDistribuicaoDFe at the national environment):
// page by distNSU from the stored ultNSU until maxNSU, each page committed with its NSU; then the authority's caps:
// 137 (nothing new) → no new query for that tax id within the hour, 656 (consumo indevido) → back off at least an
// hour, recorded with the authority's reason. Never two syncs of one tax id at once (a PostgreSQL advisory lock).
//
// A distribution query changes nothing at the authority, so it needs no persist-before-send or consult-first: an
// answer lost on the way is asked again from the same committed NSU (RetryLaterError), which re-reads that page.
import type { AuthorizerOutcome, FiscalEnvironment, SefazClient } from '@talao/authorizer-clients';
import type { CertificateCache } from '@talao/authorizer-exchange';
import type { RetDistDFeInt } from '@talao/fiscal-xml';
import type {
  ActiveCertificate,
  Company,
  ReceivedDocumentInput,
  ReceivedDocumentsRepository,
  ReceivedEventInput,
  ReceivedScope,
  ReceivedSyncSession,
} from '@talao/persistence';
import { RetryLaterError, type ReceivedChannelResult } from '@talao/queue-contracts';
import { recordOf } from './nfe-distribution-records.js';

export const HOUR_MS = 3_600_000;

export interface SyncReceivedDeps {
  companies: { findById(id: string): Promise<Company | null> };
  certificates: { findActive(companyId: string): Promise<ActiveCertificate | null> };
  certificateCache: CertificateCache;
  received: ReceivedDocumentsRepository;
  sefaz: Pick<SefazClient, 'distribution'>;
  logger: { info(bindings: object, message: string): void; warn(bindings: object, message: string): void };
  now?: () => Date;
  settings?: { maxPagesPerRun?: number; nothingNewPauseMs?: number; excessiveUsePauseMs?: number };
}

const NOTHING_NEW = '137';
const DOCUMENTS_FOUND = '138';
const EXCESSIVE_USE = '656';

type Distribution = AuthorizerOutcome<RetDistDFeInt>;

export async function syncReceivedNfe(
  deps: SyncReceivedDeps,
  job: { companyId: string; environment: FiscalEnvironment },
): Promise<ReceivedChannelResult> {
  const now = deps.now ?? (() => new Date());
  const company = await deps.companies.findById(job.companyId);
  if (!company) return { kind: 'skipped', reason: 'no such company' };
  const stored = await deps.certificates.findActive(company.id);
  if (!stored) return { kind: 'skipped', reason: 'the company has no certificate' };
  const loaded = deps.certificateCache.load(stored.id, stored.pkcs12, stored.password);
  const scope: ReceivedScope = { companyId: company.id, environment: job.environment, channel: 'nfe' };
  const ctx = { credentials: loaded.credentials, environment: job.environment, uf: company.state };
  const interested = company.taxId.length === 11 ? { cpf: company.taxId } : { cnpj: company.taxId };
  const result = await deps.received.withTaxIdLock(company.taxId, scope, (session) =>
    pageThrough(deps, session, now, (lastNsu) => deps.sefaz.distribution(ctx, { interested, query: { kind: 'after', lastNsu } })),
  );
  return result === 'busy' ? { kind: 'busy' } : result;
}

async function pageThrough(
  deps: SyncReceivedDeps,
  session: ReceivedSyncSession,
  now: () => Date,
  ask: (lastNsu: string) => Promise<Distribution>,
): Promise<ReceivedChannelResult> {
  const maxPages = deps.settings?.maxPagesPerRun ?? 200;
  const state = await session.state();
  if (state.blockedUntil && state.blockedUntil > now()) {
    return {
      kind: 'blocked',
      until: state.blockedUntil.toISOString(),
      code: state.blockedCode ?? '',
      reason: state.blockedReason ?? '',
    };
  }
  let lastNsu = state.lastNsu;
  const totals = { documents: 0, events: 0, pages: 0 };
  for (;;) {
    const queriedAt = now();
    const outcome = await ask(lastNsu);
    if (outcome.status === 'unavailable' || outcome.status === 'unknown') {
      throw new RetryLaterError(`distribution: ${outcome.status} (${outcome.reason}): ${outcome.detail}`);
    }
    const ret = outcome.result;
    const code = outcome.code;
    if (outcome.status === 'rejected') {
      const pause = code === EXCESSIVE_USE ? (deps.settings?.excessiveUsePauseMs ?? HOUR_MS) : 0;
      const block = pause > 0 ? { until: new Date(queriedAt.getTime() + pause), code, reason: outcome.message } : undefined;
      await session.commitPage({
        documents: [],
        events: [],
        lastNsu,
        maxNsu: ret?.maxNsu ?? null,
        code,
        message: outcome.message,
        queriedAt,
        block,
      });
      deps.logger.warn({ code, reason: outcome.message }, 'distribution refused');
      return block
        ? { kind: 'blocked', until: block.until.toISOString(), code, reason: block.reason }
        : { kind: 'rejected', code, reason: outcome.message };
    }
    if (!ret) throw new RetryLaterError(`distribution: ${code} without a readable answer`);
    const documents: ReceivedDocumentInput[] = [];
    const events: ReceivedEventInput[] = [];
    for (const distributed of ret.documents) {
      const record = recordOf(distributed);
      if (record.kind === 'document') documents.push(record.record);
      else if (record.kind === 'event') events.push(record.record);
    }
    const nextNsu = ret.lastNsu ?? lastNsu;
    const maxNsu = ret.maxNsu ?? nextNsu;
    const nothingNew = code === NOTHING_NEW;
    const block = nothingNew
      ? { until: new Date(queriedAt.getTime() + (deps.settings?.nothingNewPauseMs ?? HOUR_MS)), code, reason: outcome.message }
      : undefined;
    await session.commitPage({ documents, events, lastNsu: nextNsu, maxNsu, code, message: outcome.message, queriedAt, block });
    totals.documents += documents.length;
    totals.events += events.length;
    totals.pages += 1;
    lastNsu = nextNsu;
    const caughtUp = nothingNew || code !== DOCUMENTS_FOUND || nextNsu >= maxNsu || ret.documents.length === 0;
    if (caughtUp || totals.pages >= maxPages) {
      deps.logger.info({ ...totals, lastNsu, maxNsu, code }, 'distribution synced');
      return { kind: 'synced', ...totals, lastNsu, maxNsu, code };
    }
  }
}
