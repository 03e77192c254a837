// The NFS-e path of the issue job: the exchange reconciles an unknown outcome by the DPS id and resends the stored
// body only when the national environment has no NFS-e for it (libs/authorizer-exchange); this file builds the DPS.
import { exchangeConsultingFirst, nfseEmission } from '@talao/authorizer-exchange';
import { buildSignValidateDps } from '@talao/fiscal-xml';
import { planDocument } from './document-plan.js';
import type { IssueResult } from './issue-context.js';
import { concludeExchange, type IssueRun, MAX_SENDS_PER_RUN } from './issue-run.js';

/** Plans, signs and validates the DPS against its schema (the document is computed here, once per issuance). */
function buildSigned(run: IssueRun): string {
  const planned = planDocument({ ...run.invoice, request: run.request }, run.profile, run.deps.technicalResponsible);
  if (planned.documentType !== 'nfse') throw new Error('issueNfse called for an NF-e');
  return buildSignValidateDps(planned.dps, run.loaded.signer).xml;
}

export async function issueNfse(run: IssueRun): Promise<IssueResult> {
  const strategy = nfseEmission({
    nfse: run.deps.nfse,
    caller: { credentials: run.loaded.credentials, environment: run.invoice.environment },
    signedDps: () => buildSigned(run),
  });
  return concludeExchange(run, await exchangeConsultingFirst(strategy, run.log, run.submissions, { maxSends: MAX_SENDS_PER_RUN }));
}
