// "Rules on item values": quantity, unit price and amount, discount and the additions, the item total.
//   gross = amount, or round2(quantity × unit_price); both given → they must agree (ITEM_TOTAL_MISMATCH)
//   only amount → unit_price = amount / quantity with 10 places
//   total = gross − discount + freight + insurance + other expenses
import { Dec, fixed, round2 } from '../decimal/money.js';
import { lineValuesBeyondLayout } from '../documents/layout-bounds.js';
import { MONEY, POSITIVE_MONEY, readDecimal } from './decimal-rules.js';
import { type FieldError, fieldError } from './field-error.js';
import type { ItemParsed } from './invoice-request-schema.js';

export interface ItemValues {
  readonly quantity: string;
  readonly unitPrice: string;
  readonly gross: string;
  readonly discount: string;
  readonly freight: string;
  readonly insurance: string;
  readonly otherExpenses: string;
  readonly total: string;
}

export function validateItemValues(item: ItemParsed, path: string, documentType: 'nfe' | 'nfse', errors: FieldError[]): ItemValues | undefined {
  const before = errors.length;
  // qCom is TDec_1104v (4 places); the DPS has no quantity, so NFS-e lines accept unit-price precision.
  const quantityPlaces = documentType === 'nfe' ? 4 : 10;
  const quantity = readDecimal(item.quantity, `${path}.quantity`, { places: quantityPlaces, sign: 'positive', max: '99999999999.9999999999' }, errors);
  const unitPrice =
    item.unit_price === undefined
      ? undefined
      : readDecimal(item.unit_price, `${path}.unit_price`, { places: 10, sign: 'positive', max: '99999999999.9999999999' }, errors);
  const amount = item.amount === undefined ? undefined : readDecimal(item.amount, `${path}.amount`, POSITIVE_MONEY, errors);
  const additions = {
    discount: item.discount === undefined ? '0' : readDecimal(item.discount, `${path}.discount`, MONEY, errors),
    freight: item.freight === undefined ? '0' : readDecimal(item.freight, `${path}.freight`, MONEY, errors),
    insurance: item.insurance === undefined ? '0' : readDecimal(item.insurance, `${path}.insurance`, MONEY, errors),
    otherExpenses: item.other_expenses === undefined ? '0' : readDecimal(item.other_expenses, `${path}.other_expenses`, MONEY, errors),
  };
  if (item.unit_price === undefined && item.amount === undefined) {
    errors.push(fieldError('ITEM_AMOUNT_MISSING', `${path}.amount`, 'Give unit_price, amount, or both', 'unit_price and/or amount', null));
  }
  if (errors.length > before || quantity === undefined) return undefined;

  const q = new Dec(quantity);
  let gross: Dec;
  let price: Dec;
  if (unitPrice !== undefined && amount !== undefined) {
    const computed = round2(q.times(unitPrice));
    if (!computed.eq(amount)) {
      errors.push(
        fieldError(
          'ITEM_TOTAL_MISMATCH',
          `${path}.amount`,
          `quantity × unit_price = ${q.times(unitPrice).toFixed()} rounds to ${computed.toFixed(2)}, not ${new Dec(amount).toFixed(2)}`,
          computed.toFixed(2),
          item.amount,
        ),
      );
      return undefined;
    }
    gross = new Dec(amount);
    price = new Dec(unitPrice);
  } else if (amount !== undefined) {
    gross = new Dec(amount);
    price = gross.dividedBy(q).toDecimalPlaces(10);
    if (price.lte(0)) {
      errors.push(fieldError('ITEM_VALUE_NOT_POSITIVE', `${path}.amount`, 'amount / quantity is below 10 decimal places of unit price', 'a larger amount', item.amount));
      return undefined;
    }
  } else {
    price = new Dec(unitPrice!);
    gross = round2(q.times(price));
    if (gross.lte(0)) {
      errors.push(fieldError('ITEM_VALUE_NOT_POSITIVE', `${path}.unit_price`, 'quantity × unit_price rounds to 0.00', 'a line amount of at least 0.01', item.unit_price));
      return undefined;
    }
  }
  const beyond = lineValuesBeyondLayout(path, documentType, { gross, unitPrice: price }, { quantity: item.quantity, amount: item.amount });
  if (beyond) {
    errors.push(beyond);
    return undefined;
  }
  // The additions are canonical text ("0" is the only zero, the usual value): zeros are neither parsed nor added.
  const discount = additions.discount!;
  if (discount !== '0' && new Dec(discount).gt(gross)) {
    errors.push(
      fieldError('ITEM_DISCOUNT_EXCEEDS_GROSS', `${path}.discount`, `The discount exceeds the gross amount ${gross.toFixed(2)}`, `at most ${gross.toFixed(2)}`, item.discount),
    );
    return undefined;
  }
  let total = discount === '0' ? gross : gross.minus(discount);
  for (const addition of [additions.freight!, additions.insurance!, additions.otherExpenses!]) {
    if (addition !== '0') total = total.plus(addition);
  }
  // Every value below has at most the places it is printed with, so fixed() only pads (no rounding happens).
  return {
    quantity,
    unitPrice: fixed(price, 10),
    gross: fixed(gross, 2),
    discount: fixed(discount, 2),
    freight: fixed(additions.freight!, 2),
    insurance: fixed(additions.insurance!, 2),
    otherExpenses: fixed(additions.otherExpenses!, 2),
    total: fixed(total, 2),
  };
}
