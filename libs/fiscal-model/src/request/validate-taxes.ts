// Checks an NF-e item's `product.br.tax` against the issuer's regime and the fields each code needs; canonicalizes decimals.
import { canonicalizeDecimals } from './canonical-decimals.js';
import { type FieldError, fieldError } from './field-error.js';
import type { brProductSchema } from './invoice-request-schema.js';
import type { z } from 'zod';
import { type IssuerProfile, usesCsosn } from './issuer-profile.js';
import {
  ICMS_CODE_RULES,
  type IcmsField,
  IPI_TAXED_CSTS,
  SOCIAL_NOT_TAXED_CSTS,
  SOCIAL_OTHER_CSTS,
  SOCIAL_QUANTITY_CSTS,
  SOCIAL_RATE_CSTS,
  TAX_DECIMALS,
} from './tax-rules-table.js';
import type { IcmsInput, TaxInput } from './validated-request.js';

const required = (errors: FieldError[], field: string, why: string) =>
  errors.push(fieldError('TAX_FIELD_REQUIRED', field, why, 'a value', null));
const notApplicable = (errors: FieldError[], field: string, why: string, value: unknown) =>
  errors.push(fieldError('TAX_FIELD_NOT_APPLICABLE', field, why, 'absent', value));

function checkIcms(icms: IcmsInput, path: string, issuer: IssuerProfile, errors: FieldError[]): void {
  const csosnRegime = usesCsosn(issuer.taxRegime);
  if (icms.cst !== undefined && icms.csosn !== undefined) {
    notApplicable(errors, `${path}.${csosnRegime ? 'cst' : 'csosn'}`, 'Give cst or csosn, not both', csosnRegime ? icms.cst : icms.csosn);
    return;
  }
  if (icms.cst === undefined && icms.csosn === undefined) {
    required(
      errors,
      `${path}.${csosnRegime ? 'csosn' : 'cst'}`,
      csosnRegime ? 'Simples Nacional and MEI issuers give a CSOSN' : 'Issuers outside Simples Nacional give a CST',
    );
    return;
  }
  if (csosnRegime && icms.cst !== undefined) {
    errors.push(
      fieldError('TAX_CODE_REGIME_MISMATCH', `${path}.cst`, `The issuer is in ${issuer.taxRegime} (CRT 1/4): use csosn`, 'csosn', icms.cst),
    );
    return;
  }
  if (!csosnRegime && icms.csosn !== undefined) {
    errors.push(
      fieldError('TAX_CODE_REGIME_MISMATCH', `${path}.csosn`, `The issuer is in ${issuer.taxRegime} (CRT 2/3): use cst`, 'cst', icms.csosn),
    );
    return;
  }
  const code = (icms.cst ?? icms.csosn)!;
  const label = icms.cst !== undefined ? `CST ${code}` : `CSOSN ${code}`;
  const rule = ICMS_CODE_RULES[code]!;
  for (const field of rule.required) {
    if (icms[field] === undefined) required(errors, `${path}.${field}`, `${label} needs ${field}`);
  }
  const accepted = new Set<IcmsField>([...rule.required, ...rule.allowed]);
  for (const field of Object.keys(ICMS_FIELD_SET) as IcmsField[]) {
    if (icms[field] !== undefined && !accepted.has(field))
      notApplicable(errors, `${path}.${field}`, `${label} does not take ${field}`, icms[field]);
  }
  // combinations inside the accepted fields
  if (code === '10' && icms.base_reduction !== undefined && icms.partition === undefined) {
    notApplicable(errors, `${path}.base_reduction`, 'CST 10 takes base_reduction only with partition (ICMSPart)', icms.base_reduction);
  }
  if (code === '90' && icms.partition !== undefined) {
    if (icms.rate === undefined) required(errors, `${path}.rate`, 'ICMSPart needs rate');
    if (icms.st === undefined) required(errors, `${path}.st`, 'ICMSPart needs st');
  }
  if (icms.partition !== undefined && icms.fcp_rate !== undefined) {
    notApplicable(errors, `${path}.fcp_rate`, 'ICMSPart has no FCP of the own operation', icms.fcp_rate);
  }
  if (icms.st_transfer !== undefined && icms.retained === undefined) {
    required(errors, `${path}.retained`, `${label} with st_transfer (ICMSST) needs the retained ST`);
  }
  if (code === '41' && icms.retained !== undefined && icms.st_transfer === undefined) {
    required(errors, `${path}.st_transfer`, 'CST 41 carries retained ST only as a transfer (ICMSST)');
  }
  if (icms.relief) {
    if (rule.reliefReasons && !rule.reliefReasons.includes(icms.relief.reason)) {
      errors.push(
        fieldError(
          'FIELD_INVALID',
          `${path}.relief.reason`,
          `${label} accepts motDesICMS ${rule.reliefReasons.join(', ')}`,
          rule.reliefReasons.join(', '),
          icms.relief.reason,
        ),
      );
    }
    const computable = ['20', '70'].includes(code) || (code === '90' && icms.rate !== undefined);
    if (icms.relief.amount === undefined && icms.relief.rate === undefined && !computable) {
      required(errors, `${path}.relief.rate`, `${label}: give relief.rate (or relief.amount) to compute the relieved ICMS`);
    }
  }
  if (icms.st) {
    const mode = icms.st.base_mode ?? '4';
    if (mode === '4' && icms.st.margin === undefined) required(errors, `${path}.st.margin`, 'ST base mode 4 (MVA) needs the margin');
    if (['0', '1', '2', '3', '5'].includes(mode) && icms.st.base === undefined) {
      required(errors, `${path}.st.base`, `ST base mode ${mode} (price list / pauta) needs the ST base`);
    }
    if (icms.st.relief !== undefined && !['10', '70', '90'].includes(code)) {
      notApplicable(errors, `${path}.st.relief`, `${label} has no ST relief`, icms.st.relief);
    }
  }
  if (icms.monophasic) {
    const m = icms.monophasic;
    if (code === '15' && m.retained_ad_rem_rate === undefined)
      required(errors, `${path}.monophasic.retained_ad_rem_rate`, 'CST 15 needs the retained ad rem rate');
    if (code !== '15') {
      for (const key of ['retained_quantity', 'retained_ad_rem_rate', 'rate_reduction'] as const) {
        if (m[key] !== undefined) notApplicable(errors, `${path}.monophasic.${key}`, `Only CST 15 takes ${key}`, m[key]);
      }
    }
    if (code !== '53' && m.deferral_rate !== undefined)
      notApplicable(errors, `${path}.monophasic.deferral_rate`, 'Only CST 53 takes a deferral', m.deferral_rate);
  }
}

const ICMS_FIELD_SET: Record<IcmsField, true> = {
  base_mode: true,
  base_reduction: true,
  rate: true,
  fcp_rate: true,
  deferral_rate: true,
  relief: true,
  st: true,
  monophasic: true,
  retained: true,
  partition: true,
  st_transfer: true,
  credit_rate: true,
};

function checkIpi(ipi: NonNullable<TaxInput['ipi']>, path: string, errors: FieldError[]): void {
  const taxed = IPI_TAXED_CSTS.includes(ipi.cst);
  if (taxed && ipi.rate === undefined && ipi.unit_amount === undefined)
    required(errors, `${path}.rate`, `IPI CST ${ipi.cst} needs rate or unit_amount`);
  if (taxed && ipi.rate !== undefined && ipi.unit_amount !== undefined)
    notApplicable(errors, `${path}.unit_amount`, 'Give rate or unit_amount, not both', ipi.unit_amount);
  if (!taxed) {
    for (const key of ['rate', 'unit_amount'] as const) {
      if (ipi[key] !== undefined) notApplicable(errors, `${path}.${key}`, `IPI CST ${ipi.cst} is not taxed`, ipi[key]);
    }
  }
}

function checkSocial(tax: TaxInput['pis'], path: string, name: string, errors: FieldError[]): void {
  const { cst } = tax;
  if (SOCIAL_RATE_CSTS.includes(cst)) {
    if (tax.rate === undefined) required(errors, `${path}.rate`, `${name} CST ${cst} needs rate`);
    if (tax.quantity_rate !== undefined) notApplicable(errors, `${path}.quantity_rate`, `${name} CST ${cst} is by rate`, tax.quantity_rate);
  } else if (SOCIAL_QUANTITY_CSTS.includes(cst)) {
    if (tax.quantity_rate === undefined) required(errors, `${path}.quantity_rate`, `${name} CST 03 needs quantity_rate`);
    for (const key of ['rate', 'base'] as const) {
      if (tax[key] !== undefined) notApplicable(errors, `${path}.${key}`, `${name} CST 03 is by quantity`, tax[key]);
    }
  } else if (SOCIAL_NOT_TAXED_CSTS.includes(cst)) {
    for (const key of ['rate', 'quantity_rate', 'base'] as const) {
      if (tax[key] !== undefined) notApplicable(errors, `${path}.${key}`, `${name} CST ${cst} is not taxed`, tax[key]);
    }
  } else if (SOCIAL_OTHER_CSTS.includes(cst)) {
    if (tax.rate === undefined && tax.quantity_rate === undefined)
      required(errors, `${path}.rate`, `${name} CST ${cst} needs rate or quantity_rate`);
    if (tax.rate !== undefined && tax.quantity_rate !== undefined)
      notApplicable(errors, `${path}.quantity_rate`, 'Give rate or quantity_rate, not both', tax.quantity_rate);
    if (tax.quantity_rate !== undefined && tax.base !== undefined)
      notApplicable(errors, `${path}.base`, 'A quantity-based contribution has no base', tax.base);
  } else {
    errors.push(fieldError('FIELD_INVALID', `${path}.cst`, `Not a CST of ${name}`, '01–09, 49–56, 60–67, 70–75, 98, 99', cst));
  }
}

/**
 * DIFAL (ICMSUFDest): 'required' for an interstate sale to a non-contributor final consumer by a CST issuer
 * (rejection 694); 'allowed' in that situation for Simples Nacional issuers (whose DIFAL was suspended by the STF,
 * ADI 5464); 'not_applicable' anywhere else.
 */
export type DestinationIcmsRule = 'required' | 'allowed' | 'not_applicable';

/**
 * The canonical tax object (with a resolved origin), or undefined after pushing errors. `br` is an NF-e item's
 * product.br and `path` its path (items[0].product.br).
 */
export function validateTax(
  br: z.output<typeof brProductSchema>,
  path: string,
  issuer: IssuerProfile,
  difal: DestinationIcmsRule,
  errors: FieldError[],
): TaxInput | undefined {
  const before = errors.length;
  if (!br.tax) {
    errors.push(fieldError('TAX_REQUIRED', `${path}.tax`, 'NF-e items need product.br.tax (icms, pis, cofins)', 'a tax object', null));
    return undefined;
  }
  const tax = canonicalizeDecimals(br.tax, TAX_DECIMALS, `${path}.tax`, errors) as TaxInput;
  const origin = tax.icms.origin ?? br.origin;
  if (origin === undefined)
    required(errors, `${path}.tax.icms.origin`, 'The origin of the goods is required (product.br.tax.icms.origin or product.br.origin)');
  checkIcms(tax.icms, `${path}.tax.icms`, issuer, errors);
  if (tax.icms_destination !== undefined && difal === 'not_applicable') {
    notApplicable(
      errors,
      `${path}.tax.icms_destination`,
      'ICMSUFDest applies to interstate sales to a non-contributor final consumer only',
      tax.icms_destination,
    );
  }
  if (tax.icms_destination === undefined && difal === 'required') {
    required(
      errors,
      `${path}.tax.icms_destination`,
      'An interstate sale to a non-contributor final consumer needs the destination ICMS (DIFAL, rejection 694)',
    );
  }
  if (tax.ipi) checkIpi(tax.ipi, `${path}.tax.ipi`, errors);
  checkSocial(tax.pis, `${path}.tax.pis`, 'PIS', errors);
  checkSocial(tax.cofins, `${path}.tax.cofins`, 'COFINS', errors);
  if (errors.length > before) return undefined;
  return { ...tax, icms: { ...tax.icms, origin: String(origin) as IcmsInput['origin'] } };
}
