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
import { dpsComplementaryText } from './dps-text.js';
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
      if (!single)
        errors.push(
          fieldError('FIELD_INVALID', `${path}.method`, '"none" cannot be combined with other payments', 'a single "none" entry', p.method),
        );
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
      errors.push(
        fieldError(
          'PAYMENT_TOTAL_INSUFFICIENT',
          'payment',
          `Payments add up to ${paid.toFixed(2)}, less than the document total`,
          `at least ${vNF.toFixed(2)}`,
          paid.toFixed(2),
        ),
      );
    }
  }
  return payments;
}

/** What an NFS-e item reads of `product`: the quantity, and the NF-e amounts (kept only so they are refused by name). */
const NFSE_PRODUCT_KEYS = ['quantity', 'discount', 'freight', 'insurance', 'other_expenses'];

function nfseProduct(product: unknown): Record<string, unknown> | undefined {
  if (product === null || typeof product !== 'object' || Array.isArray(product)) return undefined;
  const kept = Object.fromEntries(Object.entries(product).filter(([key]) => NFSE_PRODUCT_KEYS.includes(key)));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * The body as the service reads it: for nfse, `product.br` and the other descriptive product fields (unit, barcode,
 * code) are ignored (catalogues send them on every line), so they are neither validated nor stored. Any other body is
 * returned unchanged. Store this rather than the body as received.
 */
export function acceptedRequestBody(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const request = body as Record<string, unknown>;
  if (request.document_type !== 'nfse' || !Array.isArray(request.items)) return body;
  return {
    ...request,
    items: request.items.map((item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item) || !('product' in item)) return item;
      const { product, ...rest } = item as Record<string, unknown>;
      const kept = nfseProduct(product);
      return kept ? { ...rest, product: kept } : rest;
    }),
  };
}

/** series and number: a string of digits or an integer (the schema checked the shape), within the layout's range. */
function numbering(value: string | number | undefined, field: string, min: number, max: number, errors: FieldError[]): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (n < min || n > max) {
    errors.push(fieldError('FIELD_OUT_OF_RANGE', field, `Must be between ${min} and ${max}`, `${min}–${max}`, value));
    return undefined;
  }
  return n;
}

/** The DPS carries one service: what the items must share, and what they share xInfComp with. */
function nfseDocumentRules(req: InvoiceRequestParsed, items: readonly ValidatedItem[], issuer: IssuerProfile, errors: FieldError[]): void {
  const first = items[0]!;
  for (const item of items.slice(1)) {
    if (item.serviceCode !== first.serviceCode) {
      errors.push(
        fieldError(
          'SERVICE_CODES_MIXED',
          `items[${item.index}].service_code`,
          `One NFS-e carries one service: every item must have service code ${first.serviceCode}; issue one invoice per service`,
          first.serviceCode!,
          item.serviceCode,
        ),
      );
    }
    // tpRetISSQN is one per DPS.
    if (Boolean(item.taxRetained) !== Boolean(first.taxRetained)) {
      errors.push(
        fieldError(
          'FIELD_INVALID',
          `items[${item.index}].tax_retained`,
          'One NFS-e has one ISS withholding (tpRetISSQN): every item must agree with items[0]',
          String(Boolean(first.taxRetained)),
          Boolean(item.taxRetained),
        ),
      );
    }
  }
  // The DPS carries one IBS/CBS classification: every item must agree with the first, and cIndOp must resolve.
  const ibs = first.ibsCbs;
  items.forEach((item) => {
    const same = item.ibsCbs?.cst === ibs?.cst && item.ibsCbs?.classification === ibs?.classification;
    if (!same) {
      errors.push(
        fieldError(
          'FIELD_INVALID',
          `items[${item.index}].ibs_cbs`,
          'One NFS-e carries one IBS/CBS classification: give every item the same cst and classification as items[0]',
          'the ibs_cbs of items[0]',
          item.ibsCbs ?? null,
        ),
      );
    }
  });
  if (ibs && !ibs.operation_indicator && !issuer.defaultOperationIndicator) {
    errors.push(
      fieldError(
        'FIELD_REQUIRED',
        'items[0].ibs_cbs.operation_indicator',
        'The NFS-e IBS/CBS group needs cIndOp and the company has no default',
        '6 digits',
        null,
      ),
    );
  }
  const joined = items.map((i) => i.description).join('; ');
  if (joined.length > 2000) {
    errors.push(
      fieldError(
        'FIELD_TOO_LONG',
        'items',
        `The NFS-e carries the joined item descriptions in xDescServ, which holds 2000 characters; got ${joined.length} (document_type nfse)`,
        'at most 2000 characters for nfse',
        joined.length,
      ),
    );
  }
  const complement = dpsComplementaryText(items, req.additional_info);
  if (complement !== undefined && complement.length > 2000) {
    const last = [...items].reverse().find((i) => i.observations);
    const field = req.additional_info ? 'additional_info' : `items[${last!.index}].observations`;
    errors.push(
      fieldError(
        'FIELD_TOO_LONG',
        field,
        `The NFS-e carries the items' observations and additional_info together in xInfComp, which holds 2000 characters; together they have ${complement.length} (document_type nfse)`,
        'at most 2000 characters together for nfse',
        complement.length,
      ),
    );
  }
}

export function validateInvoiceRequest(body: unknown, issuer: IssuerProfile, options: ValidationOptions = {}): ValidationResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, errors: [fieldError('FIELD_INVALID', '', 'The body must be a JSON object', 'an object', body)] };
  }
  const input = acceptedRequestBody(body);
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
    errors.push(
      fieldError('REFERENCE_REQUIRED', 'referenced_keys', `A ${purpose} NF-e must reference the original document`, 'access keys', null),
    );
  }
  const series = numbering(req.series, 'series', 0, 999, errors);
  const number = numbering(req.number, 'number', 1, 999_999_999, errors);
  const buyerResult = validateBuyer(req, type, issuer, errors);
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
    nfseDocumentRules(req, items, issuer, errors);
    const beyond = nfseTotalBeyondLayout(items);
    if (beyond) errors.push(beyond);
  }
  if (errors.length > 0 || !buyerResult) return { ok: false, errors };

  if (type === 'nfe' && !finalConsumer && nonContributor && !buyerResult.buyer.foreign) {
    return {
      ok: false,
      errors: [
        fieldError(
          'FINAL_CONSUMER_REQUIRED',
          'final_consumer',
          'A recipient without client_state_registration is a final consumer (rejection 696)',
          'true',
          false,
        ),
      ],
    };
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
      ...(series !== undefined ? { series } : {}),
      ...(number !== undefined ? { number } : {}),
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
