// The `invalidate` job: sign the inutNFe of the range, hand it to the exchange (persist before send; an unknown
// outcome is settled by sending the same bytes again, see nfe-inutilizacao.ts) and decide the range in one statement.
import { findStateAuthorizer } from '@talao/authorizer-clients';
import { exchangeConsultingFirst, ExchangeLog, NFE_INUTILIZACAO, nfeInutilizacao, unsettledTransmission } from '@talao/authorizer-exchange';
import { buildSignValidateInutilizacao } from '@talao/fiscal-xml';
import type { InvalidationsRepository } from '@talao/persistence';
import { type AmendJobResult, type JobPayload, RetryLaterError } from '@talao/queue-contracts';
import { numbersInUseMessage } from '../create/numbers-in-use.js';
import type { AmendDeps } from './amend-context.js';

export interface InvalidateDeps extends Omit<AmendDeps, 'amendments' | 'invoices'> {
  invalidations: Pick<InvalidationsRepository, 'findById' | 'numbersInUse' | 'transmissions' | 'begin' | 'answer' | 'finish'>;
}

type Decision = Parameters<InvalidationsRepository['finish']>[1];

export async function runInvalidateJob(
  deps: InvalidateDeps,
  data: JobPayload<'invalidate'>,
  attempt: { final: boolean },
): Promise<AmendJobResult> {
  const invalidation = await deps.invalidations.findById(data.invalidationId);
  if (!invalidation) return { kind: 'skipped', reason: 'no such invalidation' };
  if (invalidation.status !== 'pending') return { kind: 'final', status: invalidation.status, alreadyFinal: true };
  const [company, history] = await Promise.all([
    deps.companies.findById(invalidation.companyId),
    deps.invalidations.transmissions(invalidation.id),
  ]);
  if (!company) return { kind: 'skipped', reason: 'the company no longer exists' };
  let pending: { submissionId: string; answer: Parameters<InvalidationsRepository['answer']>[1] } | undefined;
  const log = new ExchangeLog(
    { begin: (call) => deps.invalidations.begin(invalidation.id, call), answer: (id, answer) => deps.invalidations.answer(id, answer) },
    // The subject names the company; an invalidation belongs to no invoice.
    { invoiceId: invalidation.id, companyId: invalidation.companyId },
  );
  const decide = async (decision: Decision): Promise<AmendJobResult> => {
    pending = log.take();
    const moved = await deps.invalidations.finish(invalidation.id, decision, pending);
    deps.logger.info(
      { invalidationId: invalidation.id, status: decision.status, code: decision.statusCode, moved },
      'invalidation decided',
    );
    return moved
      ? {
          kind: 'final',
          status: decision.status,
          decided: { protocol: decision.protocol, statusCode: decision.statusCode, statusMessage: decision.statusMessage },
        }
      : { kind: 'final', status: decision.status, alreadyFinal: true };
  };
  // Before the first transmission, the range's invoices again: an NF-e whose number was reserved before the filing and
  // inserted after it was invisible to the filing's check. Of the two, the one that reached the authorizer wins; an
  // issuance still `processing` with nothing sent is waited for (its issue job refuses to send an invalidated number, so
  // it ends `failed` — then the range goes ahead — unless it was already past that check).
  if (history.length === 0) {
    const inUse = await deps.invalidations.numbersInUse(invalidation);
    const settled = inUse.filter((invoice) => invoice.reached || invoice.status !== 'processing');
    if (settled.length > 0 || (inUse.length > 0 && attempt.final))
      return decide({
        status: 'rejected',
        protocol: null,
        statusCode: null,
        statusMessage: numbersInUseMessage(settled.length > 0 ? settled : inUse),
        refusedFor: 'numbers_in_use',
      });
    if (inUse.length > 0) throw new RetryLaterError(`numbers in flight: ${inUse.map((invoice) => invoice.number).join(', ')}`);
  }
  const certificateId = await deps.certificates.findActiveId(company.id);
  const loaded = certificateId
    ? await deps.certificateCache.loadOrUnseal(certificateId, () => deps.certificates.unseal(certificateId))
    : null;
  if (!loaded) {
    if (unsettledTransmission({ operation: NFE_INUTILIZACAO }, history)) throw new RetryLaterError('no usable certificate to resend with');
    return decide({ status: 'rejected', protocol: null, statusCode: null, statusMessage: 'The company has no usable certificate' });
  }
  const ufCode = findStateAuthorizer(company.state)?.code;
  if (!ufCode) return decide({ status: 'rejected', protocol: null, statusCode: null, statusMessage: `Unknown state ${company.state}` });
  try {
    const result = await exchangeConsultingFirst(
      nfeInutilizacao({
        sefaz: deps.sefaz,
        caller: { credentials: loaded.credentials, environment: invalidation.environment, uf: company.state },
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
            loaded.signer,
          ),
      }),
      log,
      history,
      { maxSends: 3 },
    );
    if (result.kind === 'retry') throw new RetryLaterError(result.reason);
    if (result.kind === 'unavailable') {
      if (!attempt.final) throw new RetryLaterError(`authorizer unavailable: ${result.detail}`);
      return await decide({
        status: 'rejected',
        protocol: null,
        statusCode: null,
        statusMessage: `Authorizer unavailable after every retry: ${result.detail}`.slice(0, 500),
      });
    }
    return await decide(result.decision);
  } finally {
    await log.flush();
  }
}
