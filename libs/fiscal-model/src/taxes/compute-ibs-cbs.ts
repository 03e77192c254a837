// IBS/CBS per item: base (default the item total) × each rate / 100, half-up to 2 places; vIBS = UF + Mun.
import { Dec, money, percentOf, rate } from '../decimal/money.js';
import type { NfeIbsCbs } from '../documents/nfe-ibs-cbs.js';
import type { IbsCbsInput } from '../request/validated-request.js';

export interface IbsCbsAmounts {
  readonly base: Dec;
  readonly state: Dec;
  readonly city: Dec;
  readonly federal: Dec;
}

export function computeIbsCbs(input: IbsCbsInput, itemTotal: Dec): { group: NfeIbsCbs; amounts: IbsCbsAmounts } {
  const base = input.base !== undefined ? new Dec(input.base) : itemTotal;
  const state = percentOf(base, input.rate_state);
  const city = percentOf(base, input.rate_city);
  const federal = percentOf(base, input.rate_federal);
  return {
    group: {
      CST: input.cst,
      cClassTrib: input.classification,
      gIBSCBS: {
        vBC: money(base),
        gIBSUF: { pIBSUF: rate(input.rate_state), vIBSUF: money(state) },
        gIBSMun: { pIBSMun: rate(input.rate_city), vIBSMun: money(city) },
        vIBS: money(state.plus(city)),
        gCBS: { pCBS: rate(input.rate_federal), vCBS: money(federal) },
      },
    },
    amounts: { base, state, city, federal },
  };
}
