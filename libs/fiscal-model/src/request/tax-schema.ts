// The `tax` object of an NF-e item (ICMS, IPI, PIS, COFINS) and the `ibs_cbs` group. It carries the issuer's
// decisions (codes, rates, reductions); the service computes every amount and never infers a CST. Which fields
// each code needs is checked by validate-taxes.ts and documented in the README.
import { z } from 'zod';
import { decimal, digits } from './schema-fields.js';

const percent = (description: string, example: string) => decimal(`${description} Percent, up to 4 decimal places.`, example);
const money = (description: string, example: string) => decimal(`${description} Up to 2 decimal places.`, example);

export const ICMS_CSTS = ['00', '02', '10', '15', '20', '30', '40', '41', '50', '51', '53', '60', '61', '70', '90'] as const;
export const ICMS_CSOSNS = ['101', '102', '103', '201', '202', '203', '300', '400', '500', '900'] as const;
export const ORIGINS = ['0', '1', '2', '3', '4', '5', '6', '7', '8'] as const;

const originSchema = z
  .union([z.enum(ORIGINS), z.number().int().min(0).max(8)])
  .meta({ description: 'Origin of the goods (orig, table A): 0 national … 8 national with import content > 70%.', examples: ['0'] });

const reliefSchema = z
  .strictObject({
    reason: z
      .string()
      .regex(/^\d{1,2}$/)
      .meta({ description: 'motDesICMS: reason code (3, 9, 12, … as the CST allows).', examples: ['9'] }),
    amount: money('vICMSDeson given explicitly; when absent it is computed (see README).', '12.34').optional(),
    rate: percent('Rate used to compute the relieved ICMS for CST 30 and 40/41/50.', '18').optional(),
    deducted: z.boolean().meta({ description: 'indDeduzDeson: the relief is deducted from the item value and vNF.' }).optional(),
  })
  .meta({ description: 'Desoneração (relieved ICMS).' });

const stSchema = z
  .strictObject({
    base_mode: z
      .enum(['0', '1', '2', '3', '4', '5', '6'])
      .meta({ description: 'modBCST: 0 tabled price, 1–3 lists, 4 MVA margin, 5 pauta, 6 operation value. Default 4.' })
      .optional(),
    margin: percent('pMVAST: value-added margin, required for base_mode 4.', '40').optional(),
    base_reduction: percent('pRedBCST: ST base reduction.', '10').optional(),
    base: money('vBCST given explicitly: required for base_mode 0, 1, 2, 3 and 5 (price lists and pauta).', '150.00').optional(),
    rate: percent('pICMSST: the destination internal rate.', '18'),
    fcp_rate: percent('pFCPST: Fundo de Combate à Pobreza on ST.', '2').optional(),
    relief: z
      .strictObject({ reason: z.enum(['3', '9', '12']), amount: money('vICMSSTDeson.', '5.00') })
      .meta({ description: 'ST relief (vICMSSTDeson, motDesICMSST) for CST 10, 70, 90.' })
      .optional(),
  })
  .meta({ description: 'ICMS ST (substituição tributária) charged on this operation.' });

const monophasicSchema = z
  .strictObject({
    quantity: decimal('qBCMono (or qBCMonoRet for CST 61): taxed quantity; default the item quantity.', '100').optional(),
    ad_rem_rate: decimal('adRemICMS (adRemICMSRet for CST 61): ICMS per unit of measure, up to 4 places.', '1.2571'),
    retained_quantity: decimal('qBCMonoReten (CST 15); default the item quantity.', '100').optional(),
    retained_ad_rem_rate: decimal('adRemICMSReten (CST 15), up to 4 places.', '0.5000').optional(),
    rate_reduction: z
      .strictObject({
        rate: percent('pRedAdRem.', '10'),
        reason: z.enum(['1', '9']).meta({ description: 'motRedAdRem: 1 public transport, 9 other.' }),
      })
      .optional(),
    deferral_rate: percent('pDif for CST 53.', '100').optional(),
  })
  .meta({ description: 'Monophasic fuel ICMS (CST 02, 15, 53, 61).' });

const retainedSchema = z
  .strictObject({
    base: money('vBCSTRet: ST base retained earlier.', '100.00'),
    rate: percent('pST: consumer-facing rate (ICMS + FCP).', '18'),
    amount: money('vICMSSTRet; default base × rate.', '18.00').optional(),
    substitute_amount: money('vICMSSubstituto: own ICMS of the substitute.', '12.00').optional(),
    fcp_base: money('vBCFCPSTRet.', '100.00').optional(),
    fcp_rate: percent('pFCPSTRet.', '2').optional(),
    effective: z
      .strictObject({ base_reduction: percent('pRedBCEfet.', '0').optional(), rate: percent('pICMSEfet.', '18') })
      .meta({ description: 'Effective ICMS for the final consumer (pRedBCEfet, vBCEfet, pICMSEfet, vICMSEfet).' })
      .optional(),
  })
  .meta({ description: 'ICMS ST retained earlier (CST 60, 41/60 transfer, CSOSN 500).' });

export const icmsSchema = z
  .strictObject({
    cst: z.enum(ICMS_CSTS).meta({ description: 'CST of ICMS, for CRT 2 and 3 issuers.' }).optional(),
    csosn: z.enum(ICMS_CSOSNS).meta({ description: 'CSOSN, for Simples Nacional (CRT 1) and MEI (CRT 4) issuers.' }).optional(),
    origin: originSchema.optional(),
    base_mode: z
      .enum(['0', '1', '2', '3'])
      .meta({ description: 'modBC: 0 MVA, 1 pauta, 2 tabled price, 3 operation value. Default 3.' })
      .optional(),
    base_reduction: percent('pRedBC: base reduction (CST 20, 51, 70, 90, partition, CSOSN 900).', '33.33').optional(),
    rate: percent('pICMS: own-operation rate (for CSOSN 201/202/203: the rate of the own ICMS deducted from ST).', '18').optional(),
    fcp_rate: percent('pFCP: Fundo de Combate à Pobreza.', '2').optional(),
    deferral_rate: percent('pDif: deferred share of the ICMS (CST 51).', '33.33').optional(),
    relief: reliefSchema.optional(),
    st: stSchema.optional(),
    monophasic: monophasicSchema.optional(),
    retained: retainedSchema.optional(),
    partition: z
      .strictObject({
        operation_base_rate: percent('pBCOp: share of the operation base taxed in the origin state.', '100'),
        st_state: z
          .string()
          .regex(/^[A-Z]{2}$/)
          .meta({ description: 'UFST: state owed the ST.', examples: ['SP'] }),
      })
      .meta({ description: 'ICMSPart (CST 10 or 90): partition between origin and destination states.' })
      .optional(),
    st_transfer: z
      .strictObject({
        destination_base: money('vBCSTDest.', '100.00'),
        destination_rate: percent('Rate of the destination state; vICMSSTDest = destination_base × rate.', '12'),
      })
      .meta({ description: 'ICMSST (CST 41 or 60): repasse of ST retained earlier to the destination state.' })
      .optional(),
    credit_rate: percent('pCredSN: Simples Nacional credit rate (CSOSN 101, 201, 900).', '2.56').optional(),
  })
  .meta({
    description: 'ICMS: exactly one of cst / csosn, plus what that code needs (see README, "ICMS groups").',
    examples: [
      { cst: '00', origin: '0', rate: '18' },
      { csosn: '102', origin: '0' },
      { cst: '10', origin: '0', rate: '12', st: { margin: '40', rate: '18' } },
    ],
  });

export const ipiSchema = z
  .strictObject({
    cst: z
      .enum(['00', '49', '50', '99', '01', '02', '03', '04', '05', '51', '52', '53', '54', '55'])
      .meta({ description: 'CST of IPI: 00/49/50/99 taxed (IPITrib), others not taxed (IPINT).' }),
    framing_code: z
      .string()
      .regex(/^\d{3}$/)
      .meta({ description: 'cEnq, legal framing code. Default 999.', examples: ['999'] })
      .optional(),
    rate: percent('pIPI (taxed CSTs; exclusive with unit_amount).', '5').optional(),
    unit_amount: decimal('vUnid: IPI per unit (taxed CSTs; exclusive with rate), 4 places.', '0.5000').optional(),
  })
  .meta({ description: 'IPI.', examples: [{ cst: '50', rate: '5' }, { cst: '53' }] });

export const socialContributionSchema = (name: 'PIS' | 'COFINS') =>
  z
    .strictObject({
      cst: z
        .string()
        .regex(/^\d{2}$/)
        .meta({ description: `CST of ${name}: 01/02 rate, 03 quantity, 04–09 not taxed, 49–99 other.`, examples: ['01'] }),
      rate: percent(`p${name}.`, name === 'PIS' ? '1.65' : '7.6').optional(),
      quantity_rate: decimal(`vAliqProd: ${name} per unit, up to 4 places.`, '0.1000').optional(),
      base: money(`vBC override; default the item total. Send it to exclude ICMS from the base (STF Tema 69).`, '100.00').optional(),
    })
    .meta({ description: name, examples: [{ cst: '01', rate: name === 'PIS' ? '1.65' : '7.6' }, { cst: '07' }] });

export const icmsDestinationSchema = z
  .strictObject({
    rate: percent('pICMSUFDest: internal rate of the destination state.', '18'),
    interstate_rate: z.enum(['4', '7', '12']).meta({ description: 'pICMSInter: interstate rate (4 imported goods, 7 or 12).' }),
    fcp_rate: percent('pFCPUFDest: FCP of the destination state.', '2').optional(),
    base: money('vBCUFDest override; default the operation base (item total + IPI).', '100.00').optional(),
  })
  .meta({
    description:
      'ICMSUFDest (DIFAL, EC 87/2015): interstate sale to a non-contributor final consumer. Required there for CST issuers (rejection 694).',
    examples: [{ rate: '18', interstate_rate: '12', fcp_rate: '2' }],
  });

export const taxSchema = z
  .strictObject({
    icms: icmsSchema,
    icms_destination: icmsDestinationSchema.optional(),
    ipi: ipiSchema.optional(),
    pis: socialContributionSchema('PIS'),
    cofins: socialContributionSchema('COFINS'),
  })
  .meta({ description: 'NF-e item taxes: the issuer decides codes and rates, the service computes the amounts.' });

export const ibsCbsSchema = z
  .strictObject({
    cst: digits(3, 'CST of IBS/CBS (3 digits).', '000'),
    classification: digits(6, 'cClassTrib (6 digits).', '000001'),
    rate_state: percent('pIBSUF: state IBS rate.', '0.1'),
    rate_city: percent('pIBSMun: municipal IBS rate.', '0'),
    rate_federal: percent('pCBS: CBS rate.', '0.9'),
    base: money('vBC override; default the item total (gross − discount + freight + insurance + other expenses).', '100.00').optional(),
    operation_indicator: digits(6, 'cIndOp for the NFS-e (DPS); default the company setting.', '100301').optional(),
  })
  .meta({
    description:
      'IBS/CBS (tax reform). Amounts = base × rate / 100, half-up to 2 places. Required from 2026 for normal-regime (CRT 3) issuers.',
    examples: [{ cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' }],
  });
