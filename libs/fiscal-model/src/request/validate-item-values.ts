// SPEC.md "Rules on item values": quantity, unit price and amount, discount and the additions, the item total.
//   gross = amount, or round2(quantity × unit_price); both given → they must agree (ITEM_TOTAL_MISMATCH)
//   only amount → unit_price = amount / quantity with 10 places
//   total = gross − discount + freight + insurance + other expenses
import { Dec, fixed, round2 } from '../decimal/money.js';
import { lineValuesBeyondLayout } from '../documents/layout-bounds.js';
import { MONEY, POSITIVE_MONEY, POSITIVE_QUANTITY, readDecimal } from './decimal-rules.js';
import { type FieldError, fieldError } from './field-error.js';
import type { ItemParsed } from './invoice-request-schema.js';
import type { ItemValues } from './validated-request.js';

/** Where each value is read: nfe → product.quantity and product.discount/freight/insurance/other_expenses; nfse →
 * product.quantity (default 1) and the item's own `discount` (the service discount; nfse has no freight, insurance
 * or other expenses, refused in validate-items.ts). */
function sources(item: ItemParsed, path: string, documentType: 'nfe' | 'nfse') {
  const p = item.product;
  const nfe = documentType === 'nfe';
  return {
    quantity: { value: p?.quantity, field: `${path}.product.quantity` },
    discount: nfe ? { value: p?.discount, field: `${path}.product.discount` } : { value: item.discount, field: `${path}.discount` },
    freight: { value: nfe ? p?.freight : undefined, field: `${path}.product.freight` },
    insurance: { value: nfe ? p?.insurance : undefined, field: `${path}.product.insurance` },
    otherExpenses: { value: nfe ? p?.other_expenses : undefined, field: `${path}.product.other_expenses` },
  };
}

/** ITEM_VALUE_NOT_POSITIVE on the value given (`amount` or `unit_price`) when the one derived from it rounds to nothing. */
function derivedValueNotPositive(item: ItemParsed, path: string, given: 'amount' | 'unit_price', message: string, expected: string) {
  return fieldError('ITEM_VALUE_NOT_POSITIVE', `${path}.${given}`, message, expected, item[given]);
}

export function validateItemValues(
  item: ItemParsed,
  path: string,
  documentType: 'nfe' | 'nfse',
  errors: FieldError[],
): ItemValues | undefined {
  const before = errors.length;
  const src = sources(item, path, documentType);
  let quantity: string | undefined;
  if (src.quantity.value !== undefined) quantity = readDecimal(src.quantity.value, src.quantity.field, POSITIVE_QUANTITY, errors);
  else if (documentType === 'nfse') quantity = '1';
  else
    errors.push(
      fieldError(
        'FIELD_REQUIRED',
        src.quantity.field,
        'An NF-e item needs product.quantity',
        'a quantity > 0 with up to 4 decimal places',
        null,
      ),
    );
  const unitPrice =
    item.unit_price === undefined
      ? undefined
      : readDecimal(item.unit_price, `${path}.unit_price`, { places: 10, sign: 'positive', max: '99999999999.9999999999' }, errors);
  const amount = item.amount === undefined ? undefined : readDecimal(item.amount, `${path}.amount`, POSITIVE_MONEY, errors);
  const optional = (s: { value: unknown; field: string }) => (s.value === undefined ? '0' : readDecimal(s.value, s.field, MONEY, errors));
  const additions = {
    discount: optional(src.discount),
    freight: optional(src.freight),
    insurance: optional(src.insurance),
    otherExpenses: optional(src.otherExpenses),
  };
  if (item.unit_price === undefined && item.amount === undefined) {
    errors.push(fieldError('ITEM_AMOUNT_MISSING', `${path}.amount`, 'Give unit_price, amount, or both', 'unit_price and/or amount', null));
  }
  if (errors.length > before || quantity === undefined) return undefined;

  const q = new Dec(quantity);
  let gross: Dec;
  let price: Dec;
  if (amount !== undefined) {
    gross = new Dec(amount);
    const derived = unitPrice === undefined;
    price = derived ? gross.dividedBy(q).toDecimalPlaces(10) : new Dec(unitPrice);
    if (price.lte(0)) {
      errors.push(
        derivedValueNotPositive(item, path, 'amount', 'amount / quantity is below 10 decimal places of unit price', 'a larger amount'),
      );
      return undefined;
    }
    // The authorizer checks vProd against qCom × vUnCom (rejection 629). Both sent, they must agree (SPEC.md rule 1);
    // derived with the 10 places the document carries, a price that no longer gives the amount is precision the XML
    // cannot carry (rule 3).
    const carried = round2(q.times(price));
    if (!carried.eq(gross)) {
      const [code, message, expected] = derived
        ? ([
            'ITEM_PRECISION_UNSUPPORTED',
            `amount / quantity needs more than 10 decimal places: the unit price ${price.toFixed(10)} × quantity gives ${carried.toFixed(2)}, not ${gross.toFixed(2)}; send unit_price as well, or a quantity that divides the amount`,
            'an amount that quantity × a 10-place unit price reproduces',
          ] as const)
        : ([
            'ITEM_TOTAL_MISMATCH',
            `quantity × unit_price = ${q.times(price).toFixed()} rounds to ${carried.toFixed(2)}, not ${gross.toFixed(2)}`,
            carried.toFixed(2),
          ] as const);
      errors.push(fieldError(code, `${path}.amount`, message, expected, item.amount));
      return undefined;
    }
  } else {
    price = new Dec(unitPrice!);
    gross = round2(q.times(price));
    if (gross.lte(0)) {
      errors.push(
        derivedValueNotPositive(item, path, 'unit_price', 'quantity × unit_price rounds to 0.00', 'a line amount of at least 0.01'),
      );
      return undefined;
    }
  }
  const beyond = lineValuesBeyondLayout(
    path,
    documentType,
    { gross, unitPrice: price },
    { quantity: item.product?.quantity, amount: item.amount },
  );
  if (beyond) {
    errors.push(beyond);
    return undefined;
  }
  // The additions are canonical text ("0" is the only zero, the usual value): zeros are neither parsed nor added.
  const discount = additions.discount!;
  if (discount !== '0' && new Dec(discount).gt(gross)) {
    errors.push(
      fieldError(
        'ITEM_DISCOUNT_EXCEEDS_GROSS',
        src.discount.field,
        `The discount exceeds the gross amount ${gross.toFixed(2)}`,
        `at most ${gross.toFixed(2)}`,
        src.discount.value,
      ),
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
