// The invoice request (POST /api/v1/invoices), one schema for both document types: field-level differences
// between NF-e and NFS-e are rules (validate-invoice-request.ts) so the errors can name them precisely.
// Every object is strict: an unknown field is refused (FIELD_UNKNOWN), which catches typos such as "discout".
import { z } from 'zod';
import { decimal, digits, positiveInt, text } from './schema-fields.js';
import { ibsCbsSchema, taxSchema } from './tax-schema.js';

export const PAYMENT_METHODS = {
  cash: '01',
  cheque: '02',
  credit_card: '03',
  debit_card: '04',
  store_credit: '05',
  food_voucher: '10',
  meal_voucher: '11',
  gift_card: '12',
  fuel_voucher: '13',
  boleto: '15',
  deposit: '16',
  pix: '17',
  bank_transfer: '18',
  cashback: '19',
  none: '90',
  other: '99',
} as const;
export type PaymentMethod = keyof typeof PAYMENT_METHODS;

export const PURPOSES = { normal: '1', complementary: '2', adjustment: '3', return: '4' } as const;
export const PRESENCES = {
  not_applicable: '0',
  in_person: '1',
  internet: '2',
  telephone: '3',
  delivery: '4',
  in_person_outside: '5',
  other: '9',
} as const;

export const addressSchema = z
  .strictObject({
    street: text(60, 'Street (xLgr).', 'Avenida Paulista'),
    number: text(60, 'Number (nro); "S/N" when none.', '1000'),
    complement: text(60, 'Complement (xCpl).', 'Sala 12').optional(),
    district: text(60, 'District (xBairro).', 'Bela Vista'),
    city_code: digits(7, 'IBGE municipality code (cMun); must exist and belong to `state`. Not used abroad.', '3550308').optional(),
    state: z.string().regex(/^[A-Z]{2}$/).meta({ description: 'State (UF) of the city.', examples: ['SP'] }).optional(),
    postal_code: digits(8, 'CEP, 8 digits.', '01310100').optional(),
    country_code: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .meta({ description: 'ISO 3166 alpha-2 country; default BR. Another country makes the operation foreign (idDest 3).', examples: ['BR'] })
      .optional(),
    bacen_country_code: digits(4, 'BACEN country code (cPais) for a foreign NF-e buyer.', '2496').optional(),
    city_name: text(60, 'City name abroad.', 'Lisboa').optional(),
  })
  .meta({ description: 'Address. NF-e: required (a Brazilian address needs city_code, state and postal_code). NFS-e: optional.' });

export const buyerSchema = z
  .strictObject({
    tax_id: z
      .string()
      .meta({
        description: 'CPF (11) or CNPJ (14) by length; punctuation allowed. CNPJ: 12 letters/digits then 2 digits (alphanumeric CNPJ). Shape only. Foreign buyers: their foreign id (idEstrangeiro) or omit.',
        examples: ['12345678909', '11222333000181', '12ABC34501DE35'],
      })
      .optional(),
    name: text(60, 'Name (xNome), 2–60 characters.', 'Maria da Silva'),
    state_registration: z
      .string()
      .regex(/^(ISENTO|\d{2,14})$/)
      .meta({ description: 'IE: digits, or ISENTO for an exempt contributor (indIEDest 2).', examples: ['110042490114'] })
      .optional(),
    email: z.email().max(60).meta({ description: 'E-mail.', examples: ['maria@example.com'] }).optional(),
    phone: z.string().regex(/^\d{6,14}$/).meta({ description: 'Phone, 6–14 digits.', examples: ['11987654321'] }).optional(),
    address: addressSchema.optional(),
  })
  .meta({ description: 'The buyer (dest / tomador).' });

export const productSchema = z
  .strictObject({
    br: z
      .strictObject({
        ncm: digits(8, 'NCM, 8 digits.', '61091000'),
        cfop: digits(4, 'CFOP; first digit 5 same state as the issuer, 6 other state, 7 abroad.', '5102'),
        cest: digits(7, 'CEST, 7 digits.', '2806300').optional(),
        gtin: z.string().meta({ description: 'GTIN-8/12/13/14 (check digit verified); omitted → "SEM GTIN".', examples: ['7891000315507'] }).optional(),
        origin: z.enum(['0', '1', '2', '3', '4', '5', '6', '7', '8']).meta({ description: 'Origin of the goods; used when tax.icms.origin is absent.' }).optional(),
      })
      .meta({ description: 'Brazilian product classification (NF-e only; ignored for NFS-e).' }),
  })
  .meta({ description: 'Product data.' });

export const itemSchema = z
  .strictObject({
    description: text(120, 'Description (xProd).', 'Camiseta algodão'),
    code: text(60, 'Product or service code (cProd); default the line number.', 'SKU-001').optional(),
    quantity: decimal('Quantity, > 0; NF-e: up to 4 decimal places.', '2'),
    unit: text(6, 'Commercial unit (uCom), ≤ 6 characters; default "UN".', 'UN').optional(),
    unit_price: decimal('Unit price, > 0, up to 10 decimal places.', '49.90').optional(),
    amount: decimal('Line amount (quantity × unit_price), > 0, up to 2 decimal places.', '99.80').optional(),
    discount: decimal('Discount, ≥ 0, up to 2 places; not above the gross amount.', '0').optional(),
    freight: decimal('Freight, ≥ 0, up to 2 places.', '0').optional(),
    insurance: decimal('Insurance, ≥ 0, up to 2 places.', '0').optional(),
    other_expenses: decimal('Other expenses, ≥ 0, up to 2 places.', '0').optional(),
    product: productSchema.optional(),
    service_code: z
      .string()
      .regex(/^(\d{1,2}\.\d{2}(\.\d{2})?|\d{6})$/)
      .meta({ description: 'NFS-e national service code: "1.07" (item.subitem, desdobro 01), "01.07.02" or "010702".', examples: ['1.07'] })
      .optional(),
    tax: taxSchema.optional(),
    ibs_cbs: ibsCbsSchema.optional(),
  })
  .meta({ description: 'A line: at least one of unit_price and amount.' });

export const paymentSchema = z
  .strictObject({
    method: z.enum(Object.keys(PAYMENT_METHODS) as [PaymentMethod, ...PaymentMethod[]]).meta({ description: 'Payment method (tPag).' }),
    amount: decimal('Amount paid with this method (vPag), up to 2 places; default the document total (single entry only).', '99.80').optional(),
    description: text(60, 'xPag, for method "other".', 'Permuta').optional(),
  })
  .meta({ description: 'A payment.' });

export const invoiceRequestSchema = z
  .strictObject({
    document_type: z.enum(['nfe', 'nfse']).meta({ description: 'nfe (NF-e model 55) or nfse (NFS-e Nacional DPS).' }),
    series: z.number().int().min(0).max(999).meta({ description: 'Series; default the company series (the gateway reserves).' }).optional(),
    number: positiveInt(999_999_999, 'Number; default the next number of the series.').optional(),
    contingency: z.boolean().meta({ description: 'NF-e only: issue through the state SVC when the authorizer is down.' }).optional(),
    operation_nature: text(60, 'natOp; default "VENDA".', 'VENDA').optional(),
    purpose: z.enum(['normal', 'complementary', 'adjustment', 'return']).meta({ description: 'finNFe; default normal.' }).optional(),
    referenced_keys: z
      .array(z.string().regex(/^\d{6}[0-9A-Z]{12}\d{26}$/))
      .min(1)
      .max(999)
      .meta({ description: 'NFref/refNFe: access keys of referenced NF-e; required for complementary and return.' })
      .optional(),
    final_consumer: z.boolean().meta({ description: 'indFinal; default true for a CPF buyer or a buyer without state registration.' }).optional(),
    presence: z.enum(Object.keys(PRESENCES) as [keyof typeof PRESENCES, ...(keyof typeof PRESENCES)[]]).meta({ description: 'indPres; default in_person.' }).optional(),
    buyer: buyerSchema,
    items: z.array(itemSchema).min(1).max(990).meta({ description: 'Lines: 1–990 (NF-e).' }),
    payment: z.array(paymentSchema).min(1).max(100).meta({ description: 'Payments (NF-e pag). Default: see README.' }).optional(),
    additional_info: text(5000, 'infCpl (NF-e) / xInfComp (NFS-e, ≤ 2000).', 'Pedido 1234').optional(),
  })
  .meta({ description: 'Invoice request.' });

export type InvoiceRequestInput = z.input<typeof invoiceRequestSchema>;
export type InvoiceRequestParsed = z.output<typeof invoiceRequestSchema>;
export type ItemParsed = InvoiceRequestParsed['items'][number];

/** JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of the request body, with descriptions and examples. */
export function invoiceRequestJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(invoiceRequestSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}
