// IPI, PIS and COFINS. Bases default to the item total (gross − discount + freight + insurance + other);
// PIS/COFINS accept an explicit base (e.g. without ICMS, STF Tema 69). Per-unit amounts use 4 places.
import { Dec, ZERO, fixed, money, percentOf, rate, round2 } from '../decimal/money.js';
import type { NfeIpi, NfeSocialContribution } from '../documents/nfe-federal-taxes.js';
import { IPI_TAXED_CSTS, SOCIAL_NOT_TAXED_CSTS, SOCIAL_QUANTITY_CSTS, SOCIAL_RATE_CSTS } from '../request/tax-rules-table.js';
import type { TaxInput } from '../request/validated-request.js';

export interface Computed<T> {
  readonly group: T;
  readonly amount: Dec;
}

export function computeIpi(ipi: NonNullable<TaxInput['ipi']>, itemTotal: Dec, quantity: Dec): Computed<NfeIpi> {
  const cEnq = ipi.framing_code ?? '999';
  if (!IPI_TAXED_CSTS.includes(ipi.cst)) {
    return { group: { group: 'IPINT', cEnq, CST: ipi.cst as Extract<NfeIpi, { group: 'IPINT' }>['CST'] }, amount: ZERO };
  }
  const CST = ipi.cst as '00' | '49' | '50' | '99';
  if (ipi.rate !== undefined) {
    const v = percentOf(itemTotal, ipi.rate);
    return { group: { group: 'IPITrib', cEnq, CST, vBC: money(itemTotal), pIPI: rate(ipi.rate), vIPI: money(v) }, amount: v };
  }
  const v = round2(quantity.times(ipi.unit_amount!));
  return {
    group: { group: 'IPITrib', cEnq, CST, qUnid: fixed(quantity, 4), vUnid: fixed(ipi.unit_amount!, 4), vIPI: money(v) },
    amount: v,
  };
}

export function computeSocialContribution(tax: TaxInput['pis'], itemTotal: Dec, quantity: Dec): Computed<NfeSocialContribution> {
  const { cst } = tax;
  if (SOCIAL_NOT_TAXED_CSTS.includes(cst)) {
    return { group: { group: 'NT', CST: cst as Extract<NfeSocialContribution, { group: 'NT' }>['CST'] }, amount: ZERO };
  }
  if (tax.quantity_rate !== undefined) {
    const v = round2(quantity.times(tax.quantity_rate));
    const common = { qBCProd: fixed(quantity, 4), vAliqProd: fixed(tax.quantity_rate, 4), v: money(v) };
    return SOCIAL_QUANTITY_CSTS.includes(cst)
      ? { group: { group: 'Qtde', CST: '03', ...common }, amount: v }
      : { group: { group: 'Outr', CST: cst, ...common }, amount: v };
  }
  const base = tax.base !== undefined ? new Dec(tax.base) : itemTotal;
  const v = percentOf(base, tax.rate!);
  const common = { vBC: money(base), p: rate(tax.rate!), v: money(v) };
  return SOCIAL_RATE_CSTS.includes(cst)
    ? { group: { group: 'Aliq', CST: cst as '01' | '02', ...common }, amount: v }
    : { group: { group: 'Outr', CST: cst, ...common }, amount: v };
}
