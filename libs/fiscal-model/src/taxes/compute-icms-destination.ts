// ICMSUFDest (DIFAL): the destination state's share on an interstate sale to a non-contributor final consumer.
//   vBCUFDest = base (default the operation base: item total + IPI)
//   vICMSUFDest = max(0, round2(vBCUFDest × pICMSUFDest) − round2(vBCUFDest × pICMSInter)), all of it to the
//   destination since 2019 (pICMSInterPart 100, vICMSUFRemet 0); vFCPUFDest = round2(vBCFCPUFDest × pFCPUFDest).
import { Dec, ZERO, money, percentOf, rate } from '../decimal/money.js';
import type { NfeIcmsUfDest } from '../documents/nfe-document.js';
import type { TaxInput } from '../request/validated-request.js';

export interface IcmsDestinationComputed {
  readonly group: NfeIcmsUfDest;
  readonly vFCPUFDest: Dec;
  readonly vICMSUFDest: Dec;
}

export function computeIcmsDestination(input: NonNullable<TaxInput['icms_destination']>, operationBase: Dec): IcmsDestinationComputed {
  const base = input.base !== undefined ? new Dec(input.base) : operationBase;
  const difference = Dec.max(ZERO, percentOf(base, input.rate).minus(percentOf(base, input.interstate_rate)));
  const fcp = input.fcp_rate !== undefined ? percentOf(base, input.fcp_rate) : ZERO;
  return {
    group: {
      vBCUFDest: money(base),
      ...(input.fcp_rate !== undefined ? { vBCFCPUFDest: money(base), pFCPUFDest: rate(input.fcp_rate) } : {}),
      pICMSUFDest: rate(input.rate),
      pICMSInter: `${input.interstate_rate}.00` as NfeIcmsUfDest['pICMSInter'],
      pICMSInterPart: '100.00',
      ...(input.fcp_rate !== undefined ? { vFCPUFDest: money(fcp) } : {}),
      vICMSUFDest: money(difference),
      vICMSUFRemet: '0.00',
    },
    vFCPUFDest: fcp,
    vICMSUFDest: difference,
  };
}
