// The `sync-received` job: the NF-e channel (DistDFe), then the NFS-e channel (ADN), each with its own NSU and
// back-off. A channel inside its back-off asks nothing; an authorizer that did not answer retries the job (the other
// channel's committed pages are not asked again: each resumes from its own NSU, and a blocked one stays blocked).
import type { FiscalEnvironment } from '@talao/authorizer-clients';
import type { SyncReceivedJobResult } from '@talao/queue-contracts';
import { type SyncReceivedDeps, syncReceivedNfe } from './sync-received-nfe.js';
import { type SyncReceivedNfseDeps, syncReceivedNfse } from './sync-received-nfse.js';

export type SyncReceivedJobDeps = SyncReceivedDeps & SyncReceivedNfseDeps;

export async function syncReceived(
  deps: SyncReceivedJobDeps,
  job: { companyId: string; environment: FiscalEnvironment },
): Promise<SyncReceivedJobResult> {
  const nfe = await syncReceivedNfe(deps, job);
  const nfse = await syncReceivedNfse(deps, job);
  return { nfe, nfse };
}
