// The `invalidate` job: sign the inutNFe of the range, hand it to the exchange (persist before send; an unknown
// outcome is settled by sending the same bytes again, see nfe-inutilizacao.ts) and decide the range in one statement.
import { findStateAuthorizer } from '@talao/authorizer-clients';
import {
  ExchangeLog,
  exchangeFiledRequest,
  filedRequestResult,
  isPending,
  NFE_INUTILIZACAO,
  nfeInutilizacao,
  refusedLocally,
  settledResult,
  transmissionsOf,
  usableCertificate,
} from '@talao/authorizer-exchange';
import { buildSignValidateInutilizacao } from '@talao/fiscal-xml';
import type { InvalidationsRepository } from '@talao/persistence';
import { type AmendJobResult, type JobPayload, RetryLaterError, type JobTry } from '@talao/queue-contracts';
import { numbersInUseMessage } from '../create/numbers-in-use.js';
import type { AmendDeps } from './amend-context.js';

export interface InvalidateDeps extends Omit<AmendDeps, 'amendments' | 'invoices'> {
  invalidations: Pick<InvalidationsRepository, 'findById' | 'numbersInUse' | 'transmissions' | 'begin' | 'answer' | 'finish'>;
}

type Decision = Parameters<InvalidationsRepository['finish']>[1];

export async function runInvalidateJob(deps: InvalidateDeps, data: JobPayload<'invalidate'>, attempt: JobTry): Promise<AmendJobResult> {
  const invalidation = await deps.invalidations.findById(data.invalidationId);
  if (!isPending(invalidation)) return settledResult(invalidation, 'invalidation');
  const [company, history] = await Promise.all([
    deps.companies.findById(invalidation.companyId),
    deps.invalidations.transmissions(invalidation.id),
  ]);
  if (!company) return { kind: 'skipped', reason: 'the company no longer exists' };
  const log = new ExchangeLog(
    transmissionsOf(deps.invalidations, invalidation.id),
    // The subject names the company; an invalidation belongs to no invoice.
    { invoiceId: invalidation.id, companyId: invalidation.companyId },
  );
  const decide = async (decision: Decision): Promise<AmendJobResult> => {
    const moved = await deps.invalidations.finish(invalidation.id, decision, log.take());
    deps.logger.info(
      { invalidationId: invalidation.id, status: decision.status, code: decision.statusCode, moved },
      'invalidation decided',
    );
    return filedRequestResult(decision, moved);
  };
  // Before the first transmission, the range's invoices again: an NF-e whose number was reserved before the filing and
  // inserted after it was invisible to the filing's check. Of the two, the one that reached the authorizer wins; an
  // issuance still `processing` with nothing sent is waited for (its issue job refuses to send an invalidated number, so
  // it ends `failed` — then the range goes ahead — unless it was already past that check).
  if (history.length === 0) {
    const inUse = await deps.invalidations.numbersInUse(invalidation);
    const settled = inUse.filter((invoice) => invoice.reached || invoice.status !== 'processing');
    if (settled.length > 0 || (inUse.length > 0 && attempt.final))
      return decide({ ...refusedLocally(numbersInUseMessage(settled.length > 0 ? settled : inUse)), refusedFor: 'numbers_in_use' });
    if (inUse.length > 0) throw new RetryLaterError(`numbers in flight: ${inUse.map((invoice) => invoice.number).join(', ')}`);
  }
  const ufCode = findStateAuthorizer(company.state)?.code;
  if (!ufCode) return decide(refusedLocally(`Unknown state ${company.state}`));
  const certificateId = await deps.certificates.findActiveId(company.id);
  return exchangeFiledRequest({
    operation: NFE_INUTILIZACAO,
    certificate: certificateId
      ? await usableCertificate(() => deps.certificateCache.loadOrUnseal(certificateId, () => deps.certificates.unseal(certificateId)))
      : null,
    strategy: ({ credentials, signer }) =>
      nfeInutilizacao({
        sefaz: deps.sefaz,
        caller: { credentials, environment: invalidation.environment, uf: company.state },
        signedInutNFe: () =>
          buildSignValidateInutilizacao(
            {
              environment: invalidation.environment,
              ufCode,
              year: invalidation.createdAt.getUTCFullYear(),
              cnpj: company.taxId,
              model: '55',
              series: invalidation.series,
              firstNumber: invalidation.numberStart,
              lastNumber: invalidation.numberEnd,
              justification: invalidation.reason,
            },
            signer,
          ),
      }),
    log,
    history,
    decide,
    finalAttempt: attempt.final,
  });
}
