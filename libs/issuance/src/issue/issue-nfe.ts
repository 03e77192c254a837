// The NF-e path of the issue job: reconcile first when an earlier attempt may have reached SEFAZ, then send (the
// stored bytes again after "no record", so the access key never changes), and go to the state's SVC when SEFAZ is
// down and the request asked for contingency.
import type { AuthorizationResult, AuthorizerOutcome, SefazCallContext } from '@talao/authorizer-clients';
import { buildSignValidateNfe } from '@talao/fiscal-xml';
import type { SubmissionRecord } from '@talao/persistence';
import { type ContingencyPlan, planDocument } from '../document-plan.js';
import type { IssueResult } from './issue-context.js';
import { describeOutcome } from './recorded-call.js';
import { finishRun, type IssueRun, MAX_SENDS_PER_RUN, unavailable } from './issue-run.js';
import { authorizeNfe, consultNfe, issuedInContingency, NFE_AUTHORIZATION, nfeProc, signedNfeOf } from './nfe-calls.js';

const AUTHORIZED = new Set(['100', '150']);
const DENIED = new Set(['110', '301', '302', '303']);
const CANCELLED = new Set(['101', '151', '155']);
/** 204: SEFAZ already holds this very key. The consult tells its state. */
const DUPLICATE_OF_SAME_KEY = '204';
/** consSitNFe: "NF-e não consta na base de dados da SEFAZ". */
const NOT_FOUND = '217';

type Reconciled = { kind: 'decided'; result: IssueResult } | { kind: 'absent' } | { kind: 'retry'; reason: string };

function context(run: IssueRun, accessKey: string): SefazCallContext {
  return { credentials: run.credentials, environment: run.invoice.environment, uf: run.company.state, contingency: issuedInContingency(accessKey) };
}

function accessKeyOf(signedNfe: string): string {
  const match = /<infNFe[^>]*\sId="NFe([0-9A-Z]{44})"/.exec(signedNfe);
  if (!match?.[1]) throw new Error('signed NF-e without an infNFe Id');
  return match[1];
}

/** Consults SEFAZ for the key: the authorizer's record decides the invoice; "no record" allows a resend. */
async function reconcile(run: IssueRun, signedNfe: string): Promise<Reconciled> {
  const accessKey = accessKeyOf(signedNfe);
  const outcome = await consultNfe(run.deps.sefaz, run.answers, run.owner, context(run, accessKey), accessKey);
  if (outcome.status === 'accepted' || outcome.status === 'authorized') {
    const prot = outcome.result.protocol;
    const base = {
      accessKey, protocol: prot?.protocolNumber ?? outcome.protocol ?? null, statusCode: prot?.status.code ?? outcome.code, statusMessage: prot?.status.message ?? outcome.message,
    };
    if (AUTHORIZED.has(base.statusCode)) {
      return { kind: 'decided', result: await finishRun(run, { status: 'issued', ...base, authorizedXml: nfeProc(signedNfe, prot?.rawXml), issuedAt: new Date() }) };
    }
    if (DENIED.has(base.statusCode)) return { kind: 'decided', result: await finishRun(run, { status: 'rejected', ...base }) };
    if (CANCELLED.has(base.statusCode)) return { kind: 'decided', result: await finishRun(run, { status: 'cancelled', ...base }) };
    return { kind: 'retry', reason: `consult answered ${base.statusCode} ${base.statusMessage}` };
  }
  if (outcome.status === 'rejected' && outcome.code === NOT_FOUND) return { kind: 'absent' };
  const why = describeOutcome(outcome);
  return { kind: 'retry', reason: `consult of ${accessKey} inconclusive (${why})` };
}

function contingencyPlan(run: IssueRun, authorizer: string, detail: string): ContingencyPlan {
  const svc = run.deps.sefaz.endpoint({ credentials: run.credentials, environment: run.invoice.environment, uf: run.company.state, contingency: true }, NFE_AUTHORIZATION);
  const at = run.deps.now?.() ?? new Date();
  // xJust: 15–256 characters of plain text.
  const reason = `SEFAZ ${authorizer} indisponivel (${detail.replace(/[^A-Za-z0-9 .:/-]/g, ' ')})`.slice(0, 256).padEnd(15, '.');
  return { type: svc.tpEmis === 6 ? 'SVC-AN' : 'SVC-RS', at, reason };
}

function buildSigned(run: IssueRun, contingency?: ContingencyPlan): string {
  const planned = planDocument({ ...run.invoice, request: run.request }, run.profile, run.deps.technicalResponsible, contingency);
  if (planned.documentType !== 'nfe') throw new Error('issueNfe called for an NFS-e');
  return buildSignValidateNfe(planned.nfe, run.loaded.signer).xml;
}

/** Enters SVC contingency: the new access key (tpEmis 6/7) and an outbox event saying why, in one transaction. */
async function enterContingency(run: IssueRun, plan: ContingencyPlan): Promise<string> {
  const signed = buildSigned(run, plan);
  const accessKey = accessKeyOf(signed);
  await run.deps.invoices.transaction(async (tx) => {
    await run.deps.invoices.setDocumentIdentity(tx, run.invoice.id, { accessKey, contingency: true });
    await run.deps.outbox.append(tx, {
      companyId: run.invoice.companyId, environment: run.invoice.environment, type: 'invoice.contingency_entered', aggregateId: run.invoice.id,
      payload: { invoice_id: run.invoice.id, previous_access_key: run.invoice.accessKey, access_key: accessKey, svc: plan.type, reason: plan.reason, entered_at: plan.at.toISOString() },
    });
  });
  run.invoice = { ...run.invoice, accessKey, contingency: true };
  run.deps.logger.warn({ invoiceId: run.invoice.id, svc: plan.type, reason: plan.reason }, 'NF-e issued through SVC contingency');
  return signed;
}

function latestAuthorization(submissions: SubmissionRecord[]): SubmissionRecord | undefined {
  return submissions.filter((s) => s.operation === NFE_AUTHORIZATION).at(-1);
}

export async function issueNfe(run: IssueRun): Promise<IssueResult> {
  const last = latestAuthorization(run.submissions);
  let signed: string | undefined;
  // An earlier attempt whose answer was lost, or never recorded (the worker died after sending): consult first.
  if (last && (last.outcome === null || last.outcome === 'unknown' || last.outcome === 'authorized')) {
    const stored = signedNfeOf(last.requestBody);
    const reconciled = await reconcile(run, stored);
    if (reconciled.kind === 'decided') return reconciled.result;
    if (reconciled.kind === 'retry') return reconciled;
    signed = stored;
  }
  for (let send = 0; send < MAX_SENDS_PER_RUN; send++) {
    // The stored bytes after "no record"; else the document as planned (deterministic: same key on every rebuild).
    signed ??= buildSigned(run, run.invoice.contingency ? contingencyPlan(run, 'autorizador', 'contingencia em curso') : undefined);
    const accessKey = accessKeyOf(signed);
    const outcome: AuthorizerOutcome<AuthorizationResult> = await authorizeNfe(run.deps.sefaz, run.answers, run.owner, context(run, accessKey), signed);
    switch (outcome.status) {
      case 'authorized':
      case 'accepted':
        return finishRun(run, {
          status: 'issued', accessKey, protocol: outcome.protocol ?? null, statusCode: outcome.code, statusMessage: outcome.message,
          authorizedXml: nfeProc(signed, outcome.result.protocol?.rawXml), issuedAt: new Date(),
        });
      case 'rejected': {
        if (outcome.code !== DUPLICATE_OF_SAME_KEY) {
          return finishRun(run, { status: 'rejected', accessKey, protocol: outcome.protocol ?? null, statusCode: outcome.code, statusMessage: outcome.message });
        }
        const reconciled = await reconcile(run, signed);
        if (reconciled.kind === 'decided') return reconciled.result;
        if (reconciled.kind === 'retry') return reconciled;
        continue;
      }
      case 'unknown': {
        const reconciled = await reconcile(run, signed);
        if (reconciled.kind === 'decided') return reconciled.result;
        if (reconciled.kind === 'retry') return reconciled;
        continue; // no record: send the same bytes again
      }
      case 'unavailable': {
        if (run.request.contingency && !run.invoice.contingency) {
          const authorizer = run.deps.sefaz.endpoint(context(run, accessKey), NFE_AUTHORIZATION).authorizer;
          signed = await enterContingency(run, contingencyPlan(run, authorizer, `${outcome.reason} ${outcome.detail}`.slice(0, 120)));
          continue;
        }
        return unavailable(run, `${outcome.reason}: ${outcome.detail}`.slice(0, 300));
      }
    }
  }
  return { kind: 'retry', reason: `${MAX_SENDS_PER_RUN} sends in one run without a decision` };
}
