// One distribution sync of a company in one environment (NF-e, NFeDistribuicaoDFe at the national environment):
// page by distNSU from the stored ultNSU until maxNSU, each page committed with its NSU; then the authority's caps:
// 137 (nothing new) → no new query for that tax id within the hour, 656 (consumo indevido) → back off at least an
// hour, recorded with the authority's reason. Never two syncs of one tax id at once (see distribution-sync.ts).
//
// A distribution query changes nothing at the authority, so it needs no persist-before-send or consult-first: an
// answer lost on the way is asked again from the same committed NSU (RetryLaterError), which re-reads that page.
import type { SefazClient } from '@talao/authorizer-clients';
import { RetryLaterError, type ReceivedChannelResult } from '@talao/queue-contracts';
import {
  type ChannelRun,
  type DistributionSyncDeps,
  HOUR_MS,
  nothingNewPause,
  rowsOf,
  syncChannel,
  type SyncJob,
} from './distribution-sync.js';
import { recordOf } from './nfe-distribution-records.js';

export interface SyncReceivedDeps extends DistributionSyncDeps {
  sefaz: Pick<SefazClient, 'distribution'>;
}

const NOTHING_NEW = '137';
const DOCUMENTS_FOUND = '138';
const EXCESSIVE_USE = '656';

export async function syncReceivedNfe(deps: SyncReceivedDeps, job: SyncJob): Promise<ReceivedChannelResult> {
  return syncChannel(deps, job, 'nfe', (run) => {
    const ctx = { credentials: run.credentials, environment: job.environment, uf: run.company.state };
    const taxId = run.company.taxId;
    const interested = taxId.length === 11 ? { cpf: taxId } : { cnpj: taxId };
    return pageThrough(deps, run, (lastNsu) => deps.sefaz.distribution(ctx, { interested, query: { kind: 'after', lastNsu } }));
  });
}

async function pageThrough(
  deps: SyncReceivedDeps,
  run: ChannelRun,
  ask: (lastNsu: string) => ReturnType<SefazClient['distribution']>,
): Promise<ReceivedChannelResult> {
  let lastNsu = run.lastNsu;
  for (;;) {
    const queriedAt = run.now();
    const outcome = await ask(lastNsu);
    if (outcome.status === 'unavailable' || outcome.status === 'unknown') {
      throw new RetryLaterError(`distribution: ${outcome.status} (${outcome.reason}): ${outcome.detail}`);
    }
    const ret = outcome.result;
    const code = outcome.code;
    if (outcome.status === 'rejected') {
      const pause = code === EXCESSIVE_USE ? (deps.settings?.excessiveUsePauseMs ?? HOUR_MS) : 0;
      const block = pause > 0 ? { until: new Date(queriedAt.getTime() + pause), code, reason: outcome.message } : undefined;
      await run.pages.refused({ lastNsu, maxNsu: ret?.maxNsu ?? null, code, message: outcome.message, queriedAt, block });
      deps.logger.warn({ code, reason: outcome.message }, 'distribution refused');
      return block
        ? { kind: 'blocked', until: block.until.toISOString(), code, reason: block.reason }
        : { kind: 'rejected', code, reason: outcome.message };
    }
    if (!ret) throw new RetryLaterError(`distribution: ${code} without a readable answer`);
    const { documents, events } = rowsOf(ret.documents, recordOf);
    const nextNsu = ret.lastNsu ?? lastNsu;
    const maxNsu = ret.maxNsu ?? nextNsu;
    const nothingNew = code === NOTHING_NEW;
    const block = nothingNew ? nothingNewPause(deps, queriedAt, code, outcome.message) : undefined;
    await run.pages.commit({ documents, events, lastNsu: nextNsu, maxNsu, code, message: outcome.message, queriedAt, block });
    lastNsu = nextNsu;
    const caughtUp = nothingNew || code !== DOCUMENTS_FOUND || nextNsu >= maxNsu || ret.documents.length === 0;
    if (caughtUp || run.pages.totals.pages >= run.maxPages) {
      const totals = run.pages.totals;
      deps.logger.info({ ...totals, lastNsu, maxNsu, code }, 'distribution synced');
      return { kind: 'synced', ...totals, lastNsu, maxNsu, code };
    }
  }
}
