// One ADN distribution sync (NFS-e Nacional, GET /contribuintes/DFe/{NSU}) of a company in one environment, with its
// own NSU: documents from the NSU after the committed one, each batch committed with its NSU (as the NF-e sync).
// ADN states no query cap, but asking a tax id with nothing new more than hourly gains nothing: the same hour's
// pause is recorded after an empty answer. The tax id lock is the NF-e sync's (one sync per tax id at a time).
import type { FiscalEnvironment, NfseNacionalClient } from '@talao/authorizer-clients';
import type { ReceivedDocumentInput, ReceivedEventInput, ReceivedScope, ReceivedSyncSession } from '@talao/persistence';
import { RetryLaterError, type ReceivedChannelResult } from '@talao/queue-contracts';
import { nfseRecordOf } from './nfse-distribution-records.js';
import { HOUR_MS, type SyncReceivedDeps } from './sync-received-nfe.js';

export interface SyncReceivedNfseDeps extends Omit<SyncReceivedDeps, 'sefaz'> {
  nfse: Pick<NfseNacionalClient, 'distribution'>;
}

const NOTHING_NEW = 'NENHUM_DOCUMENTO_LOCALIZADO';

export async function syncReceivedNfse(
  deps: SyncReceivedNfseDeps,
  job: { companyId: string; environment: FiscalEnvironment },
): Promise<ReceivedChannelResult> {
  const now = deps.now ?? (() => new Date());
  const company = await deps.companies.findById(job.companyId);
  if (!company) return { kind: 'skipped', reason: 'no such company' };
  const stored = await deps.certificates.findActive(company.id);
  if (!stored) return { kind: 'skipped', reason: 'the company has no certificate' };
  const loaded = deps.certificateCache.load(stored.id, stored.pkcs12, stored.password);
  const scope: ReceivedScope = { companyId: company.id, environment: job.environment, channel: 'nfse' };
  const ctx = { credentials: loaded.credentials, environment: job.environment };
  const result = await deps.received.withTaxIdLock(company.taxId, scope, (session) => pageThrough(deps, session, now, ctx, company.taxId));
  return result === 'busy' ? { kind: 'busy' } : result;
}

async function pageThrough(
  deps: SyncReceivedNfseDeps,
  session: ReceivedSyncSession,
  now: () => Date,
  ctx: Parameters<NfseNacionalClient['distribution']>[0],
  taxId: string,
): Promise<ReceivedChannelResult> {
  const state = await session.state();
  if (state.blockedUntil && state.blockedUntil > now()) {
    return { kind: 'blocked', until: state.blockedUntil.toISOString(), code: state.blockedCode ?? '', reason: state.blockedReason ?? '' };
  }
  const maxPages = deps.settings?.maxPagesPerRun ?? 200;
  let lastNsu = state.lastNsu;
  const totals = { documents: 0, events: 0, pages: 0 };
  for (;;) {
    const queriedAt = now();
    const outcome = await deps.nfse.distribution(ctx, { nsu: Number(lastNsu) + 1, cnpjConsulta: taxId, batch: true });
    if (outcome.status === 'unavailable' || outcome.status === 'unknown') {
      throw new RetryLaterError(`ADN distribution: ${outcome.status} (${outcome.reason}): ${outcome.detail}`);
    }
    if (outcome.status === 'rejected') {
      await session.commitPage({
        documents: [],
        events: [],
        lastNsu,
        maxNsu: null,
        code: outcome.code,
        message: outcome.message,
        queriedAt,
      });
      deps.logger.warn({ code: outcome.code, reason: outcome.message }, 'ADN distribution refused');
      return { kind: 'rejected', code: outcome.code, reason: outcome.message };
    }
    const batch = outcome.result;
    const documents: ReceivedDocumentInput[] = [];
    const events: ReceivedEventInput[] = [];
    for (const distributed of batch.documents) {
      const record = nfseRecordOf(distributed);
      if (record.kind === 'document') documents.push(record.record);
      else if (record.kind === 'event') events.push(record.record);
    }
    const highest = batch.documents.reduce((max, d) => Math.max(max, d.nsu), Number(lastNsu));
    const nextNsu = String(highest).padStart(15, '0');
    const nothingNew = batch.documents.length === 0 || batch.status === NOTHING_NEW;
    const block = nothingNew
      ? {
          until: new Date(queriedAt.getTime() + (deps.settings?.nothingNewPauseMs ?? HOUR_MS)),
          code: batch.status,
          reason: 'Nenhum documento localizado',
        }
      : undefined;
    await session.commitPage({
      documents,
      events,
      lastNsu: nextNsu,
      maxNsu: null,
      code: batch.status,
      message: batch.status,
      queriedAt,
      block,
    });
    totals.documents += documents.length;
    totals.events += events.length;
    totals.pages += 1;
    lastNsu = nextNsu;
    // A batch shorter than ADN's 50 is the end of the feed for now.
    if (nothingNew || batch.documents.length < 50 || totals.pages >= maxPages) {
      deps.logger.info({ ...totals, lastNsu, code: batch.status }, 'ADN distribution synced');
      return { kind: 'synced', ...totals, lastNsu, maxNsu: lastNsu, code: batch.status };
    }
  }
}
