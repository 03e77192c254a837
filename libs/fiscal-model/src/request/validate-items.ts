// Per-item rules beyond the values: NF-e product (unit, classification, CFOP vs destination, barcode check digit,
// manufacturer, taxes at product.br.tax), NFS-e service code, the IBS/CBS group (nfe: product.br.ibs_cbs; nfse: the
// item's own ibs_cbs, since an NFS-e ignores product.br), and the fields of the other document type.
import { NO_GTIN, isGtinShape, isValidGtin } from '../identifiers/gtin.js';
import { isCnpjShape } from '../identifiers/tax-id.js';
import { isNationalServiceCode, normalizeServiceCode } from '../tables/national-codes.js';
import { canonicalizeDecimals } from './canonical-decimals.js';
import { type FieldError, fieldError } from './field-error.js';
import type { ItemParsed } from './invoice-request-schema.js';
import type { IssuerProfile } from './issuer-profile.js';
import { IBS_CBS_DECIMALS } from './tax-rules-table.js';
import { validateItemValues } from './validate-item-values.js';
import { type DestinationIcmsRule, validateTax } from './validate-taxes.js';
import type { Destination, IbsCbsInput, ValidatedItem, ValidatedProduct } from './validated-request.js';

export interface ItemRulesContext {
  readonly documentType: 'nfe' | 'nfse';
  readonly issuer: IssuerProfile;
  readonly destination: Destination;
  /** IBS/CBS is mandatory for this issuer and date (CRT 3, from 2026). */
  readonly ibsCbsRequired: boolean;
  readonly destinationIcms: DestinationIcmsRule;
}

const CFOP_FIRST_DIGIT: Record<Destination, string> = { internal: '5', interstate: '6', foreign: '7' };
const DESTINATION_WORDS: Record<Destination, string> = {
  internal: 'the recipient is in the issuer state',
  interstate: 'the recipient is in another state',
  foreign: 'the recipient is abroad',
};

function validateProduct(item: ItemParsed, path: string, destination: Destination, errors: FieldError[]): ValidatedProduct | undefined {
  if (!item.product) {
    errors.push(
      fieldError('PRODUCT_REQUIRED', `${path}.product`, 'NF-e items need product (quantity, unit, br)', 'a product object', null),
    );
    return undefined;
  }
  const before = errors.length;
  const product = item.product;
  if (product.unit === undefined)
    errors.push(
      fieldError('FIELD_REQUIRED', `${path}.product.unit`, 'An NF-e item needs product.unit (uCom)', 'up to 6 characters, e.g. UN', null),
    );
  const br = product.br;
  if (!br) {
    errors.push(fieldError('PRODUCT_REQUIRED', `${path}.product.br`, 'NF-e items need product.br (ncm, cfop, tax)', 'product.br', null));
    return undefined;
  }
  const expectedDigit = CFOP_FIRST_DIGIT[destination];
  if (br.cfop[0] !== expectedDigit) {
    errors.push(
      fieldError(
        'CFOP_DESTINATION_MISMATCH',
        `${path}.product.br.cfop`,
        `A CFOP starting with ${expectedDigit} is required: ${DESTINATION_WORDS[destination]}`,
        `${expectedDigit}xxx`,
        br.cfop,
      ),
    );
  }
  let gtin = NO_GTIN;
  const barcode = product.barcode;
  if (barcode !== undefined && barcode !== NO_GTIN) {
    if (!isGtinShape(barcode)) {
      errors.push(fieldError('FIELD_INVALID', `${path}.product.barcode`, 'A GTIN has 8, 12, 13 or 14 digits', 'GTIN-8/12/13/14', barcode));
    } else if (!isValidGtin(barcode)) {
      errors.push(
        fieldError(
          'GTIN_CHECK_DIGIT_INVALID',
          `${path}.product.barcode`,
          'The GTIN check digit is wrong',
          'a GTIN with a valid check digit',
          barcode,
        ),
      );
    } else gtin = barcode;
  }
  const manufacturer = br.manufacturer_cnpj;
  if (manufacturer !== undefined) {
    if (!isCnpjShape(manufacturer)) {
      errors.push(
        fieldError(
          'FIELD_INVALID',
          `${path}.product.br.manufacturer_cnpj`,
          'Must be a CNPJ: 12 letters A–Z or digits, then 2 digits, without punctuation',
          '14 characters',
          manufacturer,
        ),
      );
    } else if (br.cest === undefined) {
      // The layout's sequence is CEST, indEscala, CNPJFab: CNPJFab cannot be emitted without CEST.
      errors.push(
        fieldError(
          'FIELD_REQUIRED',
          `${path}.product.br.cest`,
          'manufacturer_cnpj (CNPJFab) is carried only beside the CEST of goods under tax substitution',
          '7 digits',
          null,
        ),
      );
    }
  }
  if (errors.length > before) return undefined;
  return {
    ncm: br.ncm,
    cfop: br.cfop,
    ...(br.cest ? { cest: br.cest } : {}),
    gtin,
    ...(manufacturer ? { manufacturerCnpj: manufacturer } : {}),
  };
}

function validateServiceCode(item: ItemParsed, path: string, issuer: IssuerProfile, errors: FieldError[]): string | undefined {
  const raw = item.service_code ?? issuer.defaultServiceCode;
  if (raw === undefined) {
    errors.push(
      fieldError(
        'SERVICE_CODE_REQUIRED',
        `${path}.service_code`,
        'No service code on the item and no company default',
        'a service code such as "1.07"',
        null,
      ),
    );
    return undefined;
  }
  const code = normalizeServiceCode(raw);
  if (!code || !isNationalServiceCode(code)) {
    errors.push(
      fieldError(
        'SERVICE_CODE_UNKNOWN',
        `${path}.service_code`,
        'Not a code of the NFS-e national service list',
        'a national service code (cTribNac)',
        raw,
      ),
    );
    return undefined;
  }
  return code;
}

const notApplicable = (errors: FieldError[], field: string, why: string, value: unknown) =>
  errors.push(fieldError('FIELD_NOT_APPLICABLE', field, why, 'absent', value));

/** Item fields of the other document type: refused with the field to use instead, never dropped. */
function refuseOtherType(item: ItemParsed, path: string, documentType: 'nfe' | 'nfse', errors: FieldError[]): void {
  if (documentType === 'nfe') {
    if (item.discount !== undefined)
      notApplicable(
        errors,
        `${path}.discount`,
        'discount is the NFS-e service discount; an NF-e item takes product.discount',
        item.discount,
      );
    if (item.service_code !== undefined) notApplicable(errors, `${path}.service_code`, 'service_code is for NFS-e', item.service_code);
    if (item.tax_retained !== undefined) notApplicable(errors, `${path}.tax_retained`, 'tax_retained is for NFS-e', item.tax_retained);
    if (item.observations !== undefined)
      notApplicable(errors, `${path}.observations`, 'observations is for NFS-e; an NF-e takes additional_info', item.observations);
    if (item.ibs_cbs !== undefined)
      notApplicable(errors, `${path}.ibs_cbs`, 'An NF-e item carries IBS/CBS in product.br.ibs_cbs', item.ibs_cbs);
    return;
  }
  // nfse reads product.quantity only; the amounts of an NF-e product would change the total, so they are refused.
  for (const key of ['discount', 'freight', 'insurance', 'other_expenses'] as const) {
    const value = item.product?.[key];
    if (value !== undefined) {
      notApplicable(
        errors,
        `${path}.product.${key}`,
        key === 'discount' ? 'An NFS-e item takes its discount in `discount`' : `An NFS-e has no ${key.replace('_', ' ')}`,
        value,
      );
    }
  }
}

/** ICMS codes of goods under tax substitution (ST): the only ones a CEST goes with. */
const UNDER_TAX_SUBSTITUTION = new Set(['10', '30', '60', '70', '90', '201', '202', '203', '500', '900']);

/**
 * What an NF-e item's codes must agree on. CEST identifies goods under tax substitution: sent for other goods it is
 * grounds for rejection (SPEC.md "Item"). IBS/CBS: the platform builds the full-rate group (gIBSCBS) of CST 000;
 * another CST needs another shape (reduction gRed for 200, deferral gDif for 510, no group for exemption 400/410,
 * single-phase gIBSCBSMono for 620, …), so it is refused here rather than sent with amounts it does not owe.
 */
function nfeTaxPairing(br: NonNullable<NonNullable<ItemParsed['product']>['br']>, path: string, errors: FieldError[]): void {
  const icms = br.tax?.icms;
  const icmsCode = icms?.cst ?? icms?.csosn;
  if (br.cest !== undefined && icmsCode !== undefined && !UNDER_TAX_SUBSTITUTION.has(icmsCode)) {
    notApplicable(
      errors,
      `${path}.cest`,
      `CEST goes with goods under tax substitution (ICMS CST 10, 30, 60, 70, 90 or CSOSN 201, 202, 203, 500, 900); this item's ICMS code is ${icmsCode}`,
      br.cest,
    );
  }
  const cst = br.ibs_cbs?.cst;
  if (cst !== undefined && cst !== '000') {
    errors.push(
      fieldError(
        'FIELD_INVALID',
        `${path}.ibs_cbs.cst`,
        'The NF-e IBS/CBS group is issued for CST 000 (full rates); reduced rates, deferral, exemption, immunity, single-phase and credit transfer CSTs need groups not issued yet',
        '000',
        cst,
      ),
    );
  }
}

export function validateItem(item: ItemParsed, index: number, ctx: ItemRulesContext, errors: FieldError[]): ValidatedItem | undefined {
  const path = `items[${index}]`;
  const before = errors.length;
  refuseOtherType(item, path, ctx.documentType, errors);
  // nfe: the product first (a missing product explains a missing quantity), then the values, then its taxes.
  const product = ctx.documentType === 'nfe' ? validateProduct(item, path, ctx.destination, errors) : undefined;
  const values = ctx.documentType === 'nfe' && !item.product ? undefined : validateItemValues(item, path, ctx.documentType, errors);
  let serviceCode: string | undefined;
  let tax: ValidatedItem['tax'];
  let ibsCbsSource: { value: ItemParsed['ibs_cbs']; field: string };
  if (ctx.documentType === 'nfe') {
    if (item.product?.br) {
      tax = validateTax(item.product.br, `${path}.product.br`, ctx.issuer, ctx.destinationIcms, errors);
      nfeTaxPairing(item.product.br, `${path}.product.br`, errors);
    }
    ibsCbsSource = { value: item.product?.br?.ibs_cbs, field: `${path}.product.br.ibs_cbs` };
  } else {
    serviceCode = validateServiceCode(item, path, ctx.issuer, errors);
    ibsCbsSource = { value: item.ibs_cbs, field: `${path}.ibs_cbs` };
  }
  let ibsCbs: IbsCbsInput | undefined;
  if (ibsCbsSource.value) ibsCbs = canonicalizeDecimals(ibsCbsSource.value, IBS_CBS_DECIMALS, ibsCbsSource.field, errors) as IbsCbsInput;
  else if (ctx.ibsCbsRequired) {
    errors.push(
      fieldError(
        'IBS_CBS_REQUIRED',
        ibsCbsSource.field,
        'Normal-regime issuers (CRT 3) must inform IBS/CBS from 2026',
        'an ibs_cbs group',
        null,
      ),
    );
  }
  if (errors.length > before || !values) return undefined;
  return {
    index,
    description: item.description,
    code: item.product?.code ?? String(index + 1),
    ...values,
    unit: item.product?.unit ?? 'UN',
    ...(product ? { product } : {}),
    ...(serviceCode ? { serviceCode } : {}),
    ...(item.tax_retained ? { taxRetained: true } : {}),
    ...(item.observations ? { observations: item.observations } : {}),
    ...(tax ? { tax } : {}),
    ...(ibsCbs ? { ibsCbs } : {}),
  };
}
