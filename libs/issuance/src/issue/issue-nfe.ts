// The NF-e path of the issue job: the exchange consults first and resends stored bytes (libs/authorizer-exchange);
// this file builds the document and goes to the state's SVC when SEFAZ is down and the request asked for contingency.
import { findStateAuthorizer } from '@talao/authorizer-clients';
import { accessKeyOf, exchangeConsultingFirst, nfeAuthorization } from '@talao/authorizer-exchange';
import { buildSignValidateNfe } from '@talao/fiscal-xml';
import { type ContingencyPlan, planDocument } from './document-plan.js';
import type { IssueResult } from './issue-context.js';
import { concludeExchange, type IssueRun, MAX_SENDS_PER_RUN } from './issue-run.js';

/** The SVC of the company's state (its table), when it was entered, and why (xJust, 15–256 characters). */
function contingencyPlan(run: IssueRun, authorizer: string, detail: string): ContingencyPlan {
  const svc = findStateAuthorizer(run.company.state)?.contingencyAuthorizer;
  if (svc !== 'SVC-AN' && svc !== 'SVC-RS') throw new Error(`no SVC known for state ${run.company.state}`);
  const at = run.deps.now?.() ?? new Date();
  const reason = `SEFAZ ${authorizer} indisponivel (${detail.replace(/[^A-Za-z0-9 .:/-]/g, ' ')})`.slice(0, 256).padEnd(15, '.');
  return { type: svc, at, reason };
}

/** Plans, signs and validates the NF-e against its schema (the document is computed here, once per issuance). */
function buildSigned(run: IssueRun, contingency?: ContingencyPlan): string {
  const planned = planDocument({ ...run.invoice, request: run.request }, run.profile, run.deps.technicalResponsible, contingency);
  if (planned.documentType !== 'nfe') throw new Error('issueNfe called for an NF-e');
  return buildSignValidateNfe(planned.nfe, run.loaded.signer).xml;
}

/** Enters SVC contingency: the new access key (tpEmis 6/7) and an outbox event saying why, in one statement. */
async function enterContingency(run: IssueRun, plan: ContingencyPlan): Promise<string | undefined> {
  const signed = buildSigned(run, plan);
  const accessKey = accessKeyOf(signed);
  const { invoice } = run;
  const entered = await run.deps.invoices.setContingencyIdentity(invoice.id, accessKey, {
    companyId: invoice.companyId,
    environment: invoice.environment,
    type: 'invoice.contingency_entered',
    aggregateId: invoice.id,
    payload: {
      invoice_id: invoice.id,
      previous_access_key: invoice.accessKey,
      access_key: accessKey,
      svc: plan.type,
      reason: plan.reason,
      entered_at: plan.at.toISOString(),
    },
  });
  if (!entered) return undefined;
  run.invoice = { ...invoice, accessKey, contingency: true };
  run.deps.logger.warn({ invoiceId: invoice.id, svc: plan.type, reason: plan.reason }, 'NF-e issued through SVC contingency');
  return signed;
}

export async function issueNfe(run: IssueRun): Promise<IssueResult> {
  // Deterministic: every rebuild of a document gives the same access key (cNF from the invoice id, dhEmi its creation).
  let signed: string | undefined;
  const strategy = nfeAuthorization({
    sefaz: run.deps.sefaz,
    caller: { credentials: run.loaded.credentials, environment: run.invoice.environment, uf: run.company.state },
    signedNfe: () =>
      (signed ??= buildSigned(run, run.invoice.contingency ? contingencyPlan(run, 'autorizador', 'contingencia em curso') : undefined)),
    async enterContingency(authorizer, detail) {
      if (!run.request.contingency || run.invoice.contingency) return false;
      signed = await enterContingency(run, contingencyPlan(run, authorizer, detail.slice(0, 120)));
      return signed !== undefined;
    },
  });
  return concludeExchange(run, await exchangeConsultingFirst(strategy, run.log, run.submissions, { maxSends: MAX_SENDS_PER_RUN }));
}
