// The `issue` job: load the invoice, its company and certificate, then the document type's path. Every decision is
// recorded in PostgreSQL; a run may be repeated at any point (crash, sweeper) and takes the consult-first path.
import { NFSE_OPERATIONS } from '@talao/authorizer-clients';
import { ExchangeLog, NFE_AUTHORIZATION, unsettledTransmission } from '@talao/authorizer-exchange';
import { XmlBuildError, XsdValidationError } from '@talao/fiscal-xml';
import { CertificateError } from '@talao/xml-signing';
import { issuerProfileOf, issuingProblems, profileProblems } from '../create/issuer-configuration.js';
import { validatedRequestOf } from '../create/stored-request.js';
import type { IssueDeps, IssueOptions, IssueResult } from './issue-context.js';
import { issueNfe } from './issue-nfe.js';
import { issueNfse } from './issue-nfse.js';
import { finishRun, type IssueRun } from './issue-run.js';
import { invalidatedNumberMessage } from '../invalidated-number.js';

/**
 * When an invoice becomes `failed` (documented in docs/issuance.md):
 * - the authorizer stayed unavailable through the job's last try (nothing reached it; SVC too when in contingency);
 * - the certificate is unusable (gone, expired, not yet valid, another tax id, wrong password) or the company lost a
 *   field the document needs (what the create side checks, checked again: issuingProblems);
 * - its number lies in a range invalidated meanwhile, and no earlier run reached the authorizer;
 * - the document cannot be computed, built, or fails the official schema (a local validation failure: the same request gives
 *   the same document on every try, so retrying would only loop — the sweeper used to re-drive such an invoice for
 *   ever). The schema's message goes into the invoice's status message.
 * Never while an earlier attempt's outcome is unknown: then the invoice stays `processing` and is reconciled later.
 */
export async function issueInvoice(deps: IssueDeps, invoiceId: string, options: IssueOptions): Promise<IssueResult> {
  // One statement reads the invoice, its company, the active certificate and the earlier attempts, in one snapshot:
  // when the invoice is still `processing` there, no exchange of a finished run can be missing from it.
  const snapshot = await deps.invoices.loadForIssue(invoiceId);
  if (!snapshot) return { kind: 'skipped', reason: 'no such invoice' };
  const { invoice, company, certificate: stored, submissions } = snapshot;
  if (invoice.status !== 'processing') return { kind: 'final', status: invoice.status, alreadyFinal: true };
  if (!company) return { kind: 'skipped', reason: 'the company no longer exists' };
  const log = new ExchangeLog(deps.submissions, { invoiceId: invoice.id, companyId: invoice.companyId });
  const partial = { deps, options, invoice, company, submissions, log } as IssueRun;
  const now = deps.now?.() ?? new Date();

  // A number a concurrent invalidation covered (reserved before it was filed, inserted after): never sent. Once an
  // earlier run reached the authorizer the document goes on (the invalidate job then refuses the range instead).
  if (snapshot.invalidationId && !submissions.some((s) => s.outcome !== 'unavailable'))
    return finishRun(partial, {
      status: 'failed',
      statusCode: null,
      statusMessage: invalidatedNumberMessage(invoice.number, invoice.series, snapshot.invalidationId),
      invalidatedById: snapshot.invalidationId,
    });

  // What the create side checked, again: the company may have changed since (an operator's PATCH, a certificate
  // expired or replaced), and a document it can no longer make would fail the same way on every try.
  const gaps = [...profileProblems(company), ...issuingProblems(company, invoice.documentType, stored?.metadata ?? null, now)];
  if (gaps.length > 0 || !stored) {
    return decideUnusable(partial, `The company cannot issue: ${gaps.join(', ')}`);
  }
  let loaded;
  try {
    loaded = await deps.certificateCache.loadOrUnseal(stored.id, () => deps.certificates.unseal(stored.id));
    // Replaced and deleted between the two reads: the next try reads the new active certificate.
    if (!loaded) return { kind: 'retry', reason: `certificate ${stored.id} vanished while the job read it` };
  } catch (error) {
    if (error instanceof CertificateError) return decideUnusable(partial, `The certificate cannot be used: ${error.message}`);
    throw error;
  }
  const run: IssueRun = { ...partial, profile: issuerProfileOf(company), request: validatedRequestOf(invoice.request), loaded };
  try {
    return await (invoice.documentType === 'nfe' ? issueNfe(run) : issueNfse(run));
  } catch (error) {
    // Both are thrown before the document is sent (it is validated before it leaves): nothing of it reached the
    // authorizer in this run.
    if (error instanceof XsdValidationError)
      return decideUnusable(run, `The document failed the official schema (${error.schema}): ${schemaErrors(error)}`);
    if (error instanceof XmlBuildError) return decideUnusable(run, `The document could not be built: ${error.message}`);
    // fiscal-model refuses to compute a document its inputs cannot make (a profile short of what the type needs).
    if (error instanceof RangeError) return decideUnusable(run, `The document could not be computed: ${error.message}`);
    throw error;
  } finally {
    // An answer that decided nothing (retry, or an error thrown after it arrived) is stored before the job ends.
    await run.log.flush();
  }
}

/** The schema's own words, line by line, within the status message's 500 characters. */
function schemaErrors(error: XsdValidationError): string {
  return error.errors
    .map((e) => e.message.trim())
    .join('; ')
    .slice(0, 400);
}

/**
 * Without a usable certificate (or a valid document) nothing can be sent, so nothing can have been sent by this run. But an earlier run
 * may have sent a document whose outcome is unknown: then the invoice waits (retry) for the company to fix it.
 */
async function decideUnusable(run: IssueRun, message: string): Promise<IssueResult> {
  const operation = run.invoice.documentType === 'nfe' ? NFE_AUTHORIZATION : NFSE_OPERATIONS.emission;
  if (unsettledTransmission({ operation }, run.submissions)) return { kind: 'retry', reason: message };
  return finishRun(run, { status: 'failed', statusCode: null, statusMessage: message });
}
