// Per-item rules beyond the values: NF-e product classification (CFOP vs destination, GTIN check digit, taxes),
// NFS-e service code, IBS/CBS group.
import { NO_GTIN, isValidGtin } from '../identifiers/gtin.js';
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
  internal: 'the buyer is in the issuer state',
  interstate: 'the buyer is in another state',
  foreign: 'the buyer is abroad',
};

function validateProduct(item: ItemParsed, path: string, destination: Destination, errors: FieldError[]): ValidatedProduct | undefined {
  const br = item.product?.br;
  if (!br) {
    errors.push(fieldError('PRODUCT_REQUIRED', `${path}.product.br`, 'NF-e items need product.br (ncm, cfop)', 'product.br', null));
    return undefined;
  }
  const before = errors.length;
  const expectedDigit = CFOP_FIRST_DIGIT[destination];
  if (br.cfop[0] !== expectedDigit) {
    errors.push(
      fieldError('CFOP_DESTINATION_MISMATCH', `${path}.product.br.cfop`, `A CFOP starting with ${expectedDigit} is required: ${DESTINATION_WORDS[destination]}`, `${expectedDigit}xxx`, br.cfop),
    );
  }
  let gtin = NO_GTIN;
  if (br.gtin !== undefined && br.gtin !== NO_GTIN) {
    if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(br.gtin)) {
      errors.push(fieldError('FIELD_INVALID', `${path}.product.br.gtin`, 'A GTIN has 8, 12, 13 or 14 digits', 'GTIN-8/12/13/14', br.gtin));
    } else if (!isValidGtin(br.gtin)) {
      errors.push(fieldError('GTIN_CHECK_DIGIT_INVALID', `${path}.product.br.gtin`, 'The GTIN check digit is wrong', 'a GTIN with a valid check digit', br.gtin));
    } else gtin = br.gtin;
  }
  if (errors.length > before) return undefined;
  return { ncm: br.ncm, cfop: br.cfop, ...(br.cest ? { cest: br.cest } : {}), gtin };
}

function validateServiceCode(item: ItemParsed, path: string, issuer: IssuerProfile, errors: FieldError[]): string | undefined {
  const raw = item.service_code ?? issuer.defaultServiceCode;
  if (raw === undefined) {
    errors.push(fieldError('SERVICE_CODE_REQUIRED', `${path}.service_code`, 'No service code on the item and no company default', 'a service code such as "1.07"', null));
    return undefined;
  }
  const code = normalizeServiceCode(raw);
  if (!code || !isNationalServiceCode(code)) {
    errors.push(fieldError('SERVICE_CODE_UNKNOWN', `${path}.service_code`, 'Not a code of the NFS-e national service list', 'a national service code (cTribNac)', raw));
    return undefined;
  }
  return code;
}

export function validateItem(item: ItemParsed, index: number, ctx: ItemRulesContext, errors: FieldError[]): ValidatedItem | undefined {
  const path = `items[${index}]`;
  const before = errors.length;
  const values = validateItemValues(item, path, ctx.documentType, errors);
  let product: ValidatedProduct | undefined;
  let serviceCode: string | undefined;
  let tax: ValidatedItem['tax'];
  if (ctx.documentType === 'nfe') {
    if (item.service_code !== undefined) {
      errors.push(fieldError('FIELD_NOT_APPLICABLE', `${path}.service_code`, 'service_code is for NFS-e', 'absent', item.service_code));
    }
    product = validateProduct(item, path, ctx.destination, errors);
    tax = validateTax(item, path, ctx.issuer, ctx.destinationIcms, errors);
  } else {
    // product.br is ignored for NFS-e (a catalogue may send it for every line); tax is NF-e only.
    if (item.tax !== undefined) errors.push(fieldError('FIELD_NOT_APPLICABLE', `${path}.tax`, 'tax is for NF-e items', 'absent', item.tax));
    serviceCode = validateServiceCode(item, path, ctx.issuer, errors);
  }
  let ibsCbs: IbsCbsInput | undefined;
  if (item.ibs_cbs) ibsCbs = canonicalizeDecimals(item.ibs_cbs, IBS_CBS_DECIMALS, `${path}.ibs_cbs`, errors) as IbsCbsInput;
  else if (ctx.ibsCbsRequired) {
    errors.push(
      fieldError('IBS_CBS_REQUIRED', `${path}.ibs_cbs`, 'Normal-regime issuers (CRT 3) must inform IBS/CBS from 2026', 'an ibs_cbs group', null),
    );
  }
  if (errors.length > before || !values) return undefined;
  return {
    index,
    description: item.description,
    code: item.code ?? String(index + 1),
    ...values,
    unit: item.unit ?? 'UN',
    ...(product ? { product } : {}),
    ...(serviceCode ? { serviceCode } : {}),
    ...(tax ? { tax } : {}),
    ...(ibsCbs ? { ibsCbs } : {}),
  };
}
