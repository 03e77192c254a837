// Which `tax.icms` fields each CST / CSOSN needs and accepts (layout 4.00 groups). Anything else sent with that
// code is refused (TAX_FIELD_NOT_APPLICABLE): a field the service would silently drop is a bug on one side.
import { MONEY, PER_UNIT, PERCENT, POSITIVE_QUANTITY } from './decimal-rules.js';
import type { DecimalSpec } from './canonical-decimals.js';

export type IcmsField =
  | 'base_mode'
  | 'base_reduction'
  | 'rate'
  | 'fcp_rate'
  | 'deferral_rate'
  | 'relief'
  | 'st'
  | 'monophasic'
  | 'retained'
  | 'partition'
  | 'st_transfer'
  | 'credit_rate';

export interface IcmsCodeRule {
  readonly required: readonly IcmsField[];
  readonly allowed: readonly IcmsField[];
  /** motDesICMS values the group accepts (relief.reason). */
  readonly reliefReasons?: readonly string[];
}

const OWN: IcmsField[] = ['base_mode', 'fcp_rate'];

export const ICMS_CODE_RULES: Readonly<Record<string, IcmsCodeRule>> = {
  '00': { required: ['rate'], allowed: OWN },
  '02': { required: ['monophasic'], allowed: [] },
  '10': { required: ['rate', 'st'], allowed: [...OWN, 'partition', 'base_reduction'] },
  '15': { required: ['monophasic'], allowed: [] },
  '20': { required: ['rate', 'base_reduction'], allowed: [...OWN, 'relief'], reliefReasons: ['3', '9', '12'] },
  '30': { required: ['st'], allowed: ['relief', 'rate'], reliefReasons: ['6', '7', '9'] },
  '40': { required: [], allowed: ['relief'], reliefReasons: ['1', '3', '4', '5', '6', '7', '8', '9', '10', '11', '16', '90'] },
  '41': {
    required: [],
    allowed: ['relief', 'retained', 'st_transfer'],
    reliefReasons: ['1', '3', '4', '5', '6', '7', '8', '9', '10', '11', '16', '90'],
  },
  '50': { required: [], allowed: ['relief'], reliefReasons: ['1', '3', '4', '5', '6', '7', '8', '9', '10', '11', '16', '90'] },
  '51': { required: ['rate'], allowed: [...OWN, 'base_reduction', 'deferral_rate'] },
  '53': { required: ['monophasic'], allowed: [] },
  '60': { required: [], allowed: ['retained', 'st_transfer'] },
  '61': { required: ['monophasic'], allowed: [] },
  '70': { required: ['rate', 'base_reduction', 'st'], allowed: [...OWN, 'relief'], reliefReasons: ['3', '9', '12'] },
  '90': { required: [], allowed: [...OWN, 'rate', 'base_reduction', 'st', 'relief', 'partition'], reliefReasons: ['3', '9', '12'] },
  '101': { required: ['credit_rate'], allowed: [] },
  '102': { required: [], allowed: [] },
  '103': { required: [], allowed: [] },
  '300': { required: [], allowed: [] },
  '400': { required: [], allowed: [] },
  '201': { required: ['st', 'credit_rate'], allowed: ['rate'] },
  '202': { required: ['st'], allowed: ['rate'] },
  '203': { required: ['st'], allowed: ['rate'] },
  '500': { required: [], allowed: ['retained'] },
  '900': { required: [], allowed: ['base_mode', 'rate', 'base_reduction', 'st', 'credit_rate'] },
};

/** MVA margins may exceed 100% (TDec_0302a04: up to 999.9999). */
const MARGIN = { places: 4, sign: 'non_negative', max: '999.9999' } as const;
const AD_REM = { places: 4, sign: 'non_negative', max: '999.9999' } as const;

export const ICMS_DECIMALS: DecimalSpec = {
  base_reduction: PERCENT,
  rate: PERCENT,
  fcp_rate: PERCENT,
  deferral_rate: PERCENT,
  credit_rate: PERCENT,
  relief: { amount: MONEY, rate: PERCENT },
  st: { margin: MARGIN, base_reduction: PERCENT, base: MONEY, rate: PERCENT, fcp_rate: PERCENT, relief: { amount: MONEY } },
  monophasic: {
    quantity: POSITIVE_QUANTITY,
    ad_rem_rate: AD_REM,
    retained_quantity: POSITIVE_QUANTITY,
    retained_ad_rem_rate: AD_REM,
    rate_reduction: { rate: PERCENT },
    deferral_rate: PERCENT,
  },
  retained: {
    base: MONEY,
    rate: PERCENT,
    amount: MONEY,
    substitute_amount: MONEY,
    fcp_base: MONEY,
    fcp_rate: PERCENT,
    effective: { base_reduction: PERCENT, rate: PERCENT },
  },
  partition: { operation_base_rate: PERCENT },
  st_transfer: { destination_base: MONEY, destination_rate: PERCENT },
};

export const TAX_DECIMALS: DecimalSpec = {
  icms: ICMS_DECIMALS,
  icms_destination: { rate: PERCENT, fcp_rate: PERCENT, base: MONEY },
  ipi: { rate: PERCENT, unit_amount: PER_UNIT },
  pis: { rate: PERCENT, quantity_rate: PER_UNIT, base: MONEY },
  cofins: { rate: PERCENT, quantity_rate: PER_UNIT, base: MONEY },
};

export const IBS_CBS_DECIMALS: DecimalSpec = { rate_state: PERCENT, rate_city: PERCENT, rate_federal: PERCENT, base: MONEY };

export const IPI_TAXED_CSTS = ['00', '49', '50', '99'];
export const SOCIAL_RATE_CSTS = ['01', '02'];
export const SOCIAL_QUANTITY_CSTS = ['03'];
export const SOCIAL_NOT_TAXED_CSTS = ['04', '05', '06', '07', '08', '09'];
export const SOCIAL_OTHER_CSTS = [
  '49',
  '50',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '67',
  '70',
  '71',
  '72',
  '73',
  '74',
  '75',
  '98',
  '99',
];
