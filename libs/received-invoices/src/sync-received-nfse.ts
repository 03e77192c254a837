// One ADN distribution sync (NFS-e Nacional, GET /contribuintes/DFe/{NSU}) of a company in one environment, with its
// own NSU: documents from the NSU after the committed one, each batch committed with its NSU (as the NF-e sync).
// ADN states no query cap, but asking a tax id with nothing new more than hourly gains nothing: the same hour's
// pause is recorded after an empty answer. The tax id lock is the NF-e sync's (one sync per tax id at a time).
import type { NfseNacionalClient } from '@talao/authorizer-clients';
import { RetryLaterError, type ReceivedChannelResult } from '@talao/queue-contracts';
import { type ChannelRun, type DistributionSyncDeps, nothingNewPause, rowsOf, syncChannel, type SyncJob } from './distribution-sync.js';
import { nfseRecordOf, receivedBy } from './nfse-distribution-records.js';

export interface SyncReceivedNfseDeps extends DistributionSyncDeps {
  nfse: Pick<NfseNacionalClient, 'distribution'>;
}

const NOTHING_NEW = 'NENHUM_DOCUMENTO_LOCALIZADO';

export async function syncReceivedNfse(deps: SyncReceivedNfseDeps, job: SyncJob): Promise<ReceivedChannelResult> {
  return syncChannel(deps, job, 'nfse', (run) => pageThrough(deps, run, { credentials: run.credentials, environment: job.environment }));
}

async function pageThrough(
  deps: SyncReceivedNfseDeps,
  run: ChannelRun,
  ctx: Parameters<NfseNacionalClient['distribution']>[0],
): Promise<ReceivedChannelResult> {
  let lastNsu = run.lastNsu;
  for (;;) {
    const queriedAt = run.now();
    const outcome = await deps.nfse.distribution(ctx, { nsu: Number(lastNsu) + 1, cnpjConsulta: run.company.taxId, batch: true });
    if (outcome.status === 'unavailable' || outcome.status === 'unknown') {
      throw new RetryLaterError(`ADN distribution: ${outcome.status} (${outcome.reason}): ${outcome.detail}`);
    }
    if (outcome.status === 'rejected') {
      await run.pages.refused({ lastNsu, maxNsu: null, code: outcome.code, message: outcome.message, queriedAt });
      deps.logger.warn({ code: outcome.code, reason: outcome.message }, 'ADN distribution refused');
      return { kind: 'rejected', code: outcome.code, reason: outcome.message };
    }
    const batch = outcome.result;
    const { documents, events } = rowsOf(batch.documents, (document) => receivedBy(nfseRecordOf(document), run.company.taxId));
    const highest = batch.documents.reduce((max, d) => Math.max(max, d.nsu), Number(lastNsu));
    const nextNsu = String(highest).padStart(15, '0');
    const nothingNew = batch.documents.length === 0 || batch.status === NOTHING_NEW;
    const block = nothingNew ? nothingNewPause(deps, queriedAt, batch.status, 'Nenhum documento localizado') : undefined;
    await run.pages.commit({
      documents,
      events,
      lastNsu: nextNsu,
      maxNsu: null,
      code: batch.status,
      message: batch.status,
      queriedAt,
      block,
    });
    lastNsu = nextNsu;
    // A batch shorter than ADN's 50 is the end of the feed for now.
    if (nothingNew || batch.documents.length < 50 || run.pages.totals.pages >= run.maxPages) {
      deps.logger.info({ ...run.pages.totals, lastNsu, code: batch.status }, 'ADN distribution synced');
      return { kind: 'synced', ...run.pages.totals, lastNsu, maxNsu: lastNsu, code: batch.status };
    }
  }
}
