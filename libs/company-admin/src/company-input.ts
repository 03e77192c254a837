import { z } from 'zod';
import { type ApproximateTaxes, Dec, findMunicipality, findState, parseTaxId } from '@talao/fiscal-model';
import { validationError, type FieldProblem } from './errors.js';

const TAX_REGIMES = ['simples_nacional', 'simples_nacional_excess', 'normal', 'mei'] as const;

/**
 * What the NF-e and NFS-e layouts can carry in a name or an address (TString, `[!-ÿ]` with inner spaces): printable
 * Latin-1 — accents yes; emoji, control characters, bidi overrides and other formatting characters no. Checked when
 * the company is registered, not when its first document fails the authorizer's schema.
 */
const LATIN1_PRINTABLE = /^[\x20-\x7E\xA0-\xFF]*$/;
/** Names that never reach a document (a plan's, an API key's): any printable text, nothing of Unicode category C. */
const PRINTABLE = /^\P{C}*$/u;

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
/** A field the company's documents carry. */
const documentText = (max: number) =>
  text(max).regex(LATIN1_PRINTABLE, 'must be printable Latin-1 text, as NF-e and NFS-e fields are (no emoji, control or bidi characters)');
/** A label only operators and integrators read. */
export const labelText = (max: number) => text(max).regex(PRINTABLE, 'must be printable text (no control, formatting or bidi characters)');
/** production_quota is a PostgreSQL integer. */
const MAX_QUOTA = 2_147_483_647;
const digits = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${min},${max}}$`), min === max ? `must be ${min} digits` : `must be ${min}–${max} digits`);
const series = z.number().int('must be an integer').min(0).max(999, 'must be between 0 and 999');
/** A percentage as decimal text, 0 to 100 with up to 2 places (the DPS's TSDec3V2 carries it as written). */
const percent = z
  .string()
  .trim()
  .regex(/^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, 'must be a percentage from 0 to 100 as decimal text with up to 2 places, e.g. "13.45"');
/** Money as a decimal string (never a binary float): "0.25", "12". */
const price = z
  .string()
  .trim()
  .regex(/^\d{1,8}(\.\d{1,4})?$/, 'must be a decimal string with up to 4 decimal places, e.g. "0.25"');

export const createCompanyInputSchema = z
  .object({
    tax_id: z.string().trim(),
    legal_name: documentText(60),
    trade_name: documentText(60).optional(),
    tax_regime: z.enum(TAX_REGIMES).optional(),
    // "ISENTO" is the legal value for companies without a state registration.
    state_registration: z
      .string()
      .trim()
      .regex(/^(\d{2,14}|ISENTO)$/, 'must be 2–14 digits or ISENTO')
      .optional(),
    municipal_registration: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z]{1,15}$/, 'must be 1–15 letters or digits')
      .optional(),
    address: z.strictObject({
      street: documentText(60).optional(),
      number: documentText(60).optional(),
      complement: documentText(60).optional(),
      neighborhood: documentText(60).optional(),
      // Accepted as the invoice request accepts it: the IBGE code decides, the stored name is the table's.
      city: documentText(60).optional(),
      city_code: z
        .string()
        .trim()
        .regex(/^\d{7}$/, 'must be the 7-digit IBGE municipality code'),
      state: z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter state abbreviation (UF)'),
      zip_code: digits(8, 8).optional(),
    }),
    phone: digits(6, 14).optional(),
    email: z.email('must be an e-mail address').max(60).optional(),
    default_series: z.strictObject({ nfe: series.optional(), nfse: series.optional() }).optional(),
    default_nfse_service_code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'must be the 6-digit national service code (cTribNac)')
      .optional(),
    // Lei 12.741/2012, e.g. from the IBPT table for the company's services: the NFS-e carries it (pTotTrib), and the
    // national environment requires it from every provider but a MEI.
    approximate_taxes: z.strictObject({ federal: percent, state: percent, municipal: percent }).optional(),
    // null: the plan defaults (trial quota, no overage). production_quota null = unlimited; overage_price null = stop at the quota.
    plan: z
      .strictObject({
        name: labelText(40).optional(),
        production_quota: z.number().int('must be an integer').min(0).max(MAX_QUOTA, `must be at most ${MAX_QUOTA}`).nullable(),
        overage_price: price.nullable(),
      })
      .nullable()
      .optional(),
  })
  .strict();

export type CreateCompanyInput = z.input<typeof createCompanyInputSchema>;

/**
 * PATCH: the profile fields a company's documents read, each validated as at creation; what is not sent stays. The
 * tax id, the address (its city, state and code decide together) and the plan are not changed here.
 */
export const updateCompanyInputSchema = createCompanyInputSchema
  .pick({
    legal_name: true,
    trade_name: true,
    tax_regime: true,
    state_registration: true,
    municipal_registration: true,
    phone: true,
    email: true,
    default_nfse_service_code: true,
    approximate_taxes: true,
  })
  .partial()
  .strict();

export type UpdateCompanyInput = z.input<typeof updateCompanyInputSchema>;

/** The changed fields, in the persistence model's names. */
export type CompanyChanges = Partial<
  Pick<
    NewCompany,
    | 'legalName'
    | 'tradeName'
    | 'taxRegime'
    | 'stateRegistration'
    | 'municipalRegistration'
    | 'phone'
    | 'email'
    | 'defaultNfseServiceCode'
    | 'approximateTaxes'
  >
>;

export function parseUpdateCompanyInput(input: unknown): CompanyChanges {
  const parsed = updateCompanyInputSchema.safeParse(input);
  if (!parsed.success) throw validationError('The change is invalid', zodProblems(parsed.error));
  const data = parsed.data;
  const changes: CompanyChanges = {
    ...(data.legal_name !== undefined && { legalName: data.legal_name }),
    ...(data.trade_name !== undefined && { tradeName: data.trade_name }),
    ...(data.tax_regime !== undefined && { taxRegime: data.tax_regime }),
    ...(data.state_registration !== undefined && { stateRegistration: data.state_registration }),
    ...(data.municipal_registration !== undefined && { municipalRegistration: data.municipal_registration }),
    ...(data.phone !== undefined && { phone: data.phone }),
    ...(data.email !== undefined && { email: data.email }),
    ...(data.default_nfse_service_code !== undefined && { defaultNfseServiceCode: data.default_nfse_service_code }),
    ...(data.approximate_taxes && { approximateTaxes: approximateTaxesOf(data.approximate_taxes) }),
  };
  if (Object.keys(changes).length === 0)
    throw validationError('The change is invalid', [{ field: '(body)', message: 'names no field to change' }]);
  return changes;
}

/** Percentages as stored: decimal text with exactly 2 places. */
function approximateTaxesOf(taxes: { federal: string; state: string; municipal: string }): ApproximateTaxes {
  return {
    federal: new Dec(taxes.federal).toFixed(2),
    state: new Dec(taxes.state).toFixed(2),
    municipal: new Dec(taxes.municipal).toFixed(2),
  };
}

/** The validated company, in the persistence model's field names (district = neighborhood, postalCode = zip_code). */
export interface NewCompany {
  taxId: string;
  legalName: string;
  tradeName: string | null;
  taxRegime: (typeof TAX_REGIMES)[number] | null;
  stateRegistration: string | null;
  municipalRegistration: string | null;
  street: string | null;
  number: string | null;
  complement: string | null;
  district: string | null;
  cityCode: string;
  cityName: string;
  state: string;
  postalCode: string | null;
  phone: string | null;
  email: string | null;
  defaultNfeSeries?: number;
  defaultNfseSeries?: number;
  defaultNfseServiceCode: string | null;
  /** Percentages as decimal text with 2 places ("13.45"); absent when not given. */
  approximateTaxes?: ApproximateTaxes;
  plan?: { name?: string; productionQuota: number | null; overagePrice: string | null };
}

/** One problem per issue, one per unknown field (named in `field`, so a message never lists thousands of keys). */
export function zodProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), message: 'is not a known field' }));
    }
    return [
      {
        field: issue.path.join('.') || '(body)',
        message: issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message,
      },
    ];
  });
}

/** Shape checks (zod), then the facts zod cannot know: CNPJ layout, IBGE city, state of that city. */
export function parseCreateCompanyInput(input: unknown): NewCompany {
  const parsed = createCompanyInputSchema.safeParse(input);
  if (!parsed.success) throw validationError('The company is invalid', zodProblems(parsed.error));
  const data = parsed.data;
  const problems: FieldProblem[] = [];

  const taxId = parseTaxId(data.tax_id);
  if (!taxId || taxId.kind !== 'cnpj') {
    problems.push({ field: 'tax_id', message: 'must be a CNPJ: 14 characters, the first 12 digits or letters (A–Z), the last 2 digits' });
  }
  const municipality = findMunicipality(data.address.city_code);
  const uf = data.address.state.toUpperCase();
  if (!municipality) {
    problems.push({ field: 'address.city_code', message: `${data.address.city_code} is not a municipality in the IBGE table` });
  }
  if (!findState(uf)) {
    problems.push({ field: 'address.state', message: `${uf} is not a Brazilian state` });
  } else if (municipality && municipality.state !== uf) {
    problems.push({
      field: 'address.state',
      message: `city ${municipality.code} (${municipality.name}) is in ${municipality.state}, not ${uf}`,
    });
  }
  if (problems.length > 0 || !taxId || !municipality) throw validationError('The company is invalid', problems);

  return {
    taxId: taxId.value,
    legalName: data.legal_name,
    tradeName: data.trade_name ?? null,
    taxRegime: data.tax_regime ?? null,
    stateRegistration: data.state_registration ?? null,
    municipalRegistration: data.municipal_registration ?? null,
    street: data.address.street ?? null,
    number: data.address.number ?? null,
    complement: data.address.complement ?? null,
    district: data.address.neighborhood ?? null,
    cityCode: municipality.code,
    cityName: municipality.name,
    state: municipality.state,
    postalCode: data.address.zip_code ?? null,
    phone: data.phone ?? null,
    email: data.email ?? null,
    ...(data.default_series?.nfe !== undefined && { defaultNfeSeries: data.default_series.nfe }),
    ...(data.default_series?.nfse !== undefined && { defaultNfseSeries: data.default_series.nfse }),
    defaultNfseServiceCode: data.default_nfse_service_code ?? null,
    ...(data.approximate_taxes && { approximateTaxes: approximateTaxesOf(data.approximate_taxes) }),
    ...(data.plan && {
      plan: {
        ...(data.plan.name !== undefined && { name: data.plan.name }),
        productionQuota: data.plan.production_quota,
        overagePrice: data.plan.overage_price,
      },
    }),
  };
}
