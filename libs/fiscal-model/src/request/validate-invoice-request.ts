// validateInvoiceRequest: schema (structure) first, then the rules. On a structural failure only the schema's
// errors are returned, since rules need a well-formed body. errors[0] is the gateway's 422 `detail`.
import { Dec, sum } from '../decimal/money.js';
import { computeItems, handOverItemComputation } from '../documents/item-computation.js';
import { nfeTotalsBeyondLayout, nfseTotalBeyondLayout } from '../documents/layout-bounds.js';
import { findState } from '../tables/ibge.js';
import { MONEY, readDecimal } from './decimal-rules.js';
import { type FieldError, fieldError } from './field-error.js';
import { type InvoiceRequestParsed, PAYMENT_METHODS, invoiceRequestSchema } from './invoice-request-schema.js';
import { type IssuerProfile, usesCsosn } from './issuer-profile.js';
import { schemaErrors } from './schema-errors.js';
import { stateRegistrationIndicator, validateBuyer } from './validate-buyer.js';
import { validateItem } from './validate-items.js';
import type { ValidatedInvoiceRequest, ValidatedItem, ValidatedPayment } from './validated-request.js';

export type ValidationResult =
  /** `input`: the body as validated — the fields the schema knows, text normalized, ignored fields left out. */
  | { readonly ok: true; readonly value: ValidatedInvoiceRequest; readonly input: Record<string, unknown> }
  | { readonly ok: false; readonly errors: FieldError[] };

export interface ValidationOptions {
  /** The moment of validation (decides whether IBS/CBS is mandatory). Default: now. */
  readonly now?: Date;
}

/** IBS/CBS is mandatory for normal-regime issuers (CRT 3) for documents from 2026 (issuer's local year). */
export function ibsCbsRequired(issuer: IssuerProfile, now: Date): boolean {
  if (issuer.taxRegime !== 'normal') return false;
  const offset = findState(issuer.address.state)?.utcOffset ?? '-03:00';
  const hours = Number(offset.slice(0, 3));
  return new Date(now.getTime() + hours * 3_600_000).getUTCFullYear() >= 2026;
}

const NFE_ONLY = ['contingency', 'purpose', 'referenced_keys', 'presence', 'payment'] as const;

function resolvePayments(parsed: InvoiceRequestParsed, vNF: Dec, errors: FieldError[]): ValidatedPayment[] {
  const purpose = parsed.purpose ?? 'normal';
  if (!parsed.payment) {
    // Default: adjustment and return documents carry "90 – no payment" (layout rule for finNFe 3/4); a sale
    // carries its total as "99 – other" ("Nao informado"), which satisfies vPag ≥ vNF without inventing a method.
    return purpose === 'adjustment' || purpose === 'return'
      ? [{ method: 'none', code: PAYMENT_METHODS.none, amount: '0.00' }]
      : [{ method: 'other', code: PAYMENT_METHODS.other, amount: vNF.toFixed(2), description: 'Nao informado' }];
  }
  const before = errors.length;
  const payments: ValidatedPayment[] = [];
  const single = parsed.payment.length === 1;
  parsed.payment.forEach((p, i) => {
    const path = `payment[${i}]`;
    if (p.method === 'none') {
      if (!single) errors.push(fieldError('FIELD_INVALID', `${path}.method`, '"none" cannot be combined with other payments', 'a single "none" entry', p.method));
      if (p.amount !== undefined && !(readDecimal(p.amount, `${path}.amount`, MONEY, errors) === '0')) {
        errors.push(fieldError('FIELD_INVALID', `${path}.amount`, 'A "none" payment has amount 0', '0', p.amount));
      }
      payments.push({ method: 'none', code: PAYMENT_METHODS.none, amount: '0.00' });
      return;
    }
    let amount: string | undefined;
    if (p.amount !== undefined) amount = readDecimal(p.amount, `${path}.amount`, MONEY, errors);
    else if (single) amount = vNF.toFixed(2);
    else errors.push(fieldError('FIELD_REQUIRED', `${path}.amount`, 'With several payments each needs its amount', 'an amount', null));
    if (amount === undefined) return;
    payments.push({
      method: p.method,
      code: PAYMENT_METHODS[p.method],
      amount: new Dec(amount).toFixed(2),
      ...(p.description ? { description: p.description } : p.method === 'other' ? { description: 'Outros' } : {}),
    });
  });
  if (errors.length > before) return [];
  if (payments[0]?.method !== 'none') {
    const paid = sum(payments.map((p) => p.amount));
    if (paid.lt(vNF)) {
      errors.push(fieldError('PAYMENT_TOTAL_INSUFFICIENT', 'payment', `Payments add up to ${paid.toFixed(2)}, less than the document total`, `at least ${vNF.toFixed(2)}`, paid.toFixed(2)));
    }
  }
  return payments;
}

/** NFS-e ignores `product` (catalogues send it on every line): removed before the schema sees it. */
function ignoreNfseProducts(body: Record<string, unknown>): Record<string, unknown> {
  if (body.document_type !== 'nfse' || !Array.isArray(body.items)) return body;
  return {
    ...body,
    items: body.items.map((item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const { product: _ignored, ...rest } = item as Record<string, unknown>;
      return rest;
    }),
  };
}

export function validateInvoiceRequest(body: unknown, issuer: IssuerProfile, options: ValidationOptions = {}): ValidationResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, errors: [fieldError('FIELD_INVALID', '', 'The body must be a JSON object', 'an object', body)] };
  }
  const input = ignoreNfseProducts(body as Record<string, unknown>);
  const parsed = invoiceRequestSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return { ok: false, errors: schemaErrors(parsed.error, input) };
  const req = parsed.data;
  const errors: FieldError[] = [];
  const type = req.document_type;

  if (type === 'nfse') {
    for (const key of NFE_ONLY) {
      if (req[key] !== undefined) errors.push(fieldError('FIELD_NOT_APPLICABLE', key, `${key} applies to NF-e only`, 'absent', req[key]));
    }
  }
  const purpose = req.purpose ?? 'normal';
  if (type === 'nfe' && (purpose === 'complementary' || purpose === 'return') && !req.referenced_keys) {
    errors.push(fieldError('REFERENCE_REQUIRED', 'referenced_keys', `A ${purpose} NF-e must reference the original document`, 'access keys', null));
  }
  const buyerResult = validateBuyer(req.buyer, type, issuer, errors);
  const destination = buyerResult?.destination ?? 'internal';
  const buyer = buyerResult?.buyer;
  const nonContributor = buyer ? stateRegistrationIndicator(buyer) === '9' : false;
  const finalConsumer = req.final_consumer ?? (buyer?.foreign ? false : buyer?.taxId?.kind === 'cpf' || nonContributor);
  const difalCase = type === 'nfe' && destination === 'interstate' && finalConsumer && nonContributor;
  const itemCtx = {
    documentType: type,
    issuer,
    destination,
    ibsCbsRequired: ibsCbsRequired(issuer, options.now ?? new Date()),
    destinationIcms: !difalCase ? ('not_applicable' as const) : usesCsosn(issuer.taxRegime) ? ('allowed' as const) : ('required' as const),
  };
  const items: ValidatedItem[] = [];
  req.items.forEach((item, i) => {
    const validated = validateItem(item, i, itemCtx, errors);
    if (validated) items.push(validated);
  });
  if (type === 'nfse' && items.length === req.items.length) {
    const first = items[0]!.serviceCode;
    for (const item of items.slice(1)) {
      if (item.serviceCode !== first) {
        errors.push(
          fieldError('SERVICE_CODES_MIXED', `items[${item.index}].service_code`, `One NFS-e carries one service: every item must have service code ${first}; issue one invoice per service`, first!, item.serviceCode),
        );
      }
    }
    // The DPS carries one IBS/CBS classification: every item must agree with the first, and cIndOp must resolve.
    const ibs = items[0]!.ibsCbs;
    items.forEach((item) => {
      const same = item.ibsCbs?.cst === ibs?.cst && item.ibsCbs?.classification === ibs?.classification;
      if (!same) {
        errors.push(fieldError('FIELD_INVALID', `items[${item.index}].ibs_cbs`, 'One NFS-e carries one IBS/CBS classification: give every item the same cst and classification as items[0]', 'the ibs_cbs of items[0]', item.ibsCbs ?? null));
      }
    });
    if (ibs && !ibs.operation_indicator && !issuer.defaultOperationIndicator) {
      errors.push(fieldError('FIELD_REQUIRED', 'items[0].ibs_cbs.operation_indicator', 'The NFS-e IBS/CBS group needs cIndOp and the company has no default', '6 digits', null));
    }
    const beyond = nfseTotalBeyondLayout(items);
    if (beyond) errors.push(beyond);
    const joined = items.map((i) => i.description).join('; ');
    if (joined.length > 2000) errors.push(fieldError('FIELD_TOO_LONG', 'items', 'The joined item descriptions exceed the 2000 characters of xDescServ', 'at most 2000 characters', joined.length));
    if (req.additional_info && req.additional_info.length > 2000) {
      errors.push(fieldError('FIELD_TOO_LONG', 'additional_info', 'xInfComp holds at most 2000 characters', 'at most 2000 characters', req.additional_info));
    }
  }
  if (errors.length > 0 || !buyerResult) return { ok: false, errors };

  if (type === 'nfe' && !finalConsumer && nonContributor && !buyerResult.buyer.foreign) {
    return { ok: false, errors: [fieldError('FINAL_CONSUMER_REQUIRED', 'final_consumer', 'A buyer without state registration is a final consumer (rejection 696)', 'true', false)] };
  }
  let payments: ValidatedPayment[] = [];
  if (type === 'nfe') {
    const computation = computeItems(items, finalConsumer);
    const beyond = nfeTotalsBeyondLayout(computation.totals);
    if (beyond) return { ok: false, errors: [beyond] };
    payments = resolvePayments(req, computation.totals.vNF, errors);
    if (errors.length > 0) return { ok: false, errors };
    // `items` becomes the request's items: computeNfeDocument on this request reuses the computation.
    handOverItemComputation(items, finalConsumer, computation);
  }
  return {
    ok: true,
    input: req as Record<string, unknown>,
    value: {
      documentType: type,
      ...(req.series !== undefined ? { series: req.series } : {}),
      ...(req.number !== undefined ? { number: req.number } : {}),
      contingency: req.contingency ?? false,
      operationNature: req.operation_nature ?? 'VENDA',
      purpose,
      referencedKeys: req.referenced_keys ?? [],
      finalConsumer,
      presence: req.presence ?? (purpose === 'complementary' || purpose === 'adjustment' ? 'not_applicable' : 'in_person'),
      destination,
      buyer: buyerResult.buyer,
      items,
      payments,
      ...(req.additional_info ? { additionalInfo: req.additional_info } : {}),
    },
  };
}

