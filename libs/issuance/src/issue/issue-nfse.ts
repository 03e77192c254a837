// The NFS-e path of the issue job: the DPS id identifies the declaration, so an unknown outcome is reconciled with
// GET /dps/{id} and the same signed DPS is sent again only when the national environment has no NFS-e for it.
import type { AuthorizerOutcome, IssuedNfse, NfseCallContext } from '@talao/authorizer-clients';
import { buildSignValidateDps } from '@talao/fiscal-xml';
import { planDocument } from '../document-plan.js';
import type { IssueResult } from './issue-context.js';
import { describeOutcome } from './recorded-call.js';
import { finishRun, type IssueRun, MAX_SENDS_PER_RUN, unavailable } from './issue-run.js';
import { consultDps, dpsNotFound, emitDps, fetchNfse, NFSE_EMISSION, signedDpsOf } from './nfse-calls.js';

type Reconciled = { kind: 'decided'; result: IssueResult } | { kind: 'absent' } | { kind: 'retry'; reason: string };

function context(run: IssueRun): NfseCallContext {
  return { credentials: run.credentials, environment: run.invoice.environment };
}

function dpsIdOf(signedDps: string): string {
  const match = /<infDPS[^>]*\sId="(DPS[0-9]{42})"/.exec(signedDps);
  if (!match?.[1]) throw new Error('signed DPS without an infDPS Id');
  return match[1];
}

async function reconcile(run: IssueRun, signedDps: string): Promise<Reconciled> {
  const dpsId = dpsIdOf(signedDps);
  const outcome = await consultDps(run.deps.nfse, run.answers, run.owner, context(run), dpsId);
  if (outcome.status === 'accepted' || outcome.status === 'authorized') {
    const accessKey = outcome.result.accessKey;
    if (!accessKey) return { kind: 'retry', reason: `DPS ${dpsId} found without its NFS-e key` };
    // The consult answers the key only; the NFS-e itself is fetched to keep the legal document. If that fetch
    // fails the invoice is still issued (the key is certain) and the XML can be fetched later.
    const fetched = await fetchNfse(run.deps.nfse, run.answers, run.owner, context(run), accessKey);
    const authorizedXml = fetched.status === 'accepted' || fetched.status === 'authorized' ? (fetched.result.nfseXml ?? null) : null;
    return {
      kind: 'decided',
      result: await finishRun(run, { status: 'issued', accessKey, protocol: accessKey, statusCode: outcome.code, statusMessage: outcome.message, authorizedXml, issuedAt: new Date() }),
    };
  }
  if (dpsNotFound(outcome)) return { kind: 'absent' };
  const why = describeOutcome(outcome);
  return { kind: 'retry', reason: `consult of ${dpsId} inconclusive (${why})` };
}

function buildSigned(run: IssueRun): string {
  const planned = planDocument({ ...run.invoice, request: run.request }, run.profile, run.deps.technicalResponsible);
  if (planned.documentType !== 'nfse') throw new Error('issueNfse called for an NF-e');
  return buildSignValidateDps(planned.dps, run.loaded.signer).xml;
}

export async function issueNfse(run: IssueRun): Promise<IssueResult> {
  const last = run.submissions.filter((s) => s.operation === NFSE_EMISSION).at(-1);
  let signed: string | undefined;
  if (last && (last.outcome === null || last.outcome === 'unknown' || last.outcome === 'authorized')) {
    const stored = signedDpsOf(last.requestBody);
    const reconciled = await reconcile(run, stored);
    if (reconciled.kind === 'decided') return reconciled.result;
    if (reconciled.kind === 'retry') return reconciled;
    signed = stored;
  }
  for (let send = 0; send < MAX_SENDS_PER_RUN; send++) {
    signed ??= buildSigned(run);
    const outcome: AuthorizerOutcome<IssuedNfse> = await emitDps(run.deps.nfse, run.answers, run.owner, context(run), signed);
    switch (outcome.status) {
      case 'authorized':
      case 'accepted':
        return finishRun(run, {
          status: 'issued', accessKey: outcome.result.accessKey, protocol: outcome.result.accessKey, statusCode: outcome.code, statusMessage: outcome.message,
          authorizedXml: outcome.result.nfseXml ?? null, issuedAt: new Date(),
        });
      case 'rejected':
        return finishRun(run, { status: 'rejected', statusCode: outcome.code, statusMessage: outcome.message });
      case 'unknown': {
        const reconciled = await reconcile(run, signed);
        if (reconciled.kind === 'decided') return reconciled.result;
        if (reconciled.kind === 'retry') return reconciled;
        continue;
      }
      case 'unavailable':
        return unavailable(run, `${outcome.reason}: ${outcome.detail}`.slice(0, 300));
    }
  }
  return { kind: 'retry', reason: `${MAX_SENDS_PER_RUN} sends in one run without a decision` };
}
