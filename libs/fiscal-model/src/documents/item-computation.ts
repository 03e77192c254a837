// Every item's taxes and the NF-e totals, computed once per validated request where possible. validateInvoiceRequest
// needs them (vNF decides the default payment and the payment check) and computeNfeDocument needs exactly the same
// values for the same items; the gateway calls both in turn on the one validated request (access key and total),
// so the validation's computation is handed over to the document instead of being redone.
// Keyed by the identity of the (readonly) items array and taken at most once, so every document owns its objects;
// a request read back from storage, or a second rebuild of the same request, computes afresh.
import type { ValidatedItem } from '../request/validated-request.js';
import { computeItemTaxes, type ItemTaxes } from '../taxes/compute-item-taxes.js';
import { computeTotals, type NfeTotals } from './compute-totals.js';

export interface ItemComputation {
  readonly taxes: readonly ItemTaxes[];
  readonly totals: NfeTotals;
}

const handedOver = new WeakMap<readonly ValidatedItem[], { readonly finalConsumer: boolean; readonly computation: ItemComputation }>();

export function computeItems(items: readonly ValidatedItem[], finalConsumer: boolean): ItemComputation {
  const taxes = items.map((item) => computeItemTaxes(item, finalConsumer));
  return { taxes, totals: computeTotals(items, taxes) };
}

/** Keeps a computation for the document that will be built from these very items (see takeItemComputation). */
export function handOverItemComputation(items: readonly ValidatedItem[], finalConsumer: boolean, computation: ItemComputation): void {
  handedOver.set(items, { finalConsumer, computation });
}

/** The computation handed over for these items (once), or a fresh one. */
export function takeItemComputation(items: readonly ValidatedItem[], finalConsumer: boolean): ItemComputation {
  const kept = handedOver.get(items);
  if (kept) {
    handedOver.delete(items);
    if (kept.finalConsumer === finalConsumer) return kept.computation;
  }
  return computeItems(items, finalConsumer);
}
