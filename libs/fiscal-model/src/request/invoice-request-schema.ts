// The invoice request (POST /api/v1/invoices), one schema for both document types: field-level differences
// between NF-e and NFS-e are rules (validate-invoice-request.ts) so the errors can name them precisely.
// Every object is strict: an unknown field is refused (FIELD_UNKNOWN), which catches typos such as "discout".
import { z } from 'zod';
import { decimal, digits, text } from './schema-fields.js';
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

/** NF-e only: the layout's text fields of an address hold at most 60 characters (DPS: 60 or more). */
export const addressSchema = z
  .strictObject({
    street: text(60, 'Street (NF-e xLgr, DPS xLgr).', 'Avenida Paulista'),
    number: text(
      60,
      'Building number (nro). When the building has none, send "S/N" (the NF-e convention); it is never filled in for you.',
      '1000',
    ),
    complement: text(60, 'Additive: complement (xCpl).', 'Sala 12').optional(),
    neighborhood: text(60, 'Neighborhood (xBairro).', 'Bela Vista'),
    city: text(
      60,
      'Municipality name. Accepted as sent and not compared: the 7-digit city_code decides, and the document carries the IBGE name of that code.',
      'São Paulo',
    ),
    state: z
      .string()
      .regex(/^[A-Z]{2}$/, { message: 'Must be 2 upper-case letters' })
      .meta({ description: 'State (UF), 2 letters; must be the state of city_code.', examples: ['SP'] })
      .optional(),
    zip_code: digits(8, 'CEP, 8 digits, no hyphen.', '01310100').optional(),
    city_code: digits(
      7,
      'IBGE municipality code (cMun), 7 digits, read by the authorizer: it must exist and be in `state`.',
      '3550308',
    ).optional(),
    country_code: z
      .string()
      .regex(/^[A-Z]{2}$/, { message: 'Must be 2 upper-case letters' })
      .meta({
        description:
          'Additive: ISO 3166 alpha-2 country; default BR. Another country makes the operation foreign (NF-e idDest 3); then state, zip_code and city_code are not used.',
        examples: ['BR'],
      })
      .optional(),
    bacen_country_code: digits(4, 'Additive: BACEN country code (cPais), required for a recipient abroad on an NF-e.', '2496').optional(),
  })
  .meta({
    description:
      'Recipient address. Required for nfe, optional for nfse. A Brazilian address needs every field but complement (state, zip_code and city_code are checked by rule so an address abroad can omit them).',
  });

export const brProductSchema = z
  .strictObject({
    ncm: digits(8, 'NCM, 8 digits (format validated, choice not).', '61091000'),
    cfop: digits(4, 'CFOP, 4 digits; first digit 5 inside the issuer state, 6 another state, 7 abroad.', '5102'),
    cest: digits(7, 'CEST, 7 digits; only for goods under tax substitution.', '2806300').optional(),
    tax: taxSchema.optional(),
    manufacturer_cnpj: z
      .string()
      .meta({
        description:
          'CNPJ of the manufacturer (CNPJFab, emitted with indEscala N), 14 characters; needs cest (the layout carries it only beside CEST).',
        examples: ['11222333000181'],
      })
      .optional(),
    ibs_cbs: ibsCbsSchema.optional(),
    origin: z
      .enum(['0', '1', '2', '3', '4', '5', '6', '7', '8'])
      .meta({ description: 'Additive: origin of the goods, used when tax.icms.origin is absent.' })
      .optional(),
  })
  .meta({ description: 'Brazilian classification and taxes of the goods (NF-e). Ignored for nfse (not validated, not stored).' });

export const productSchema = z
  .strictObject({
    quantity: decimal('Quantity, > 0, up to 4 decimal places. Required for nfe; nfse: default 1.', '2').optional(),
    unit: text(6, 'Commercial unit (uCom), free text up to 6 characters, e.g. UN, CX, KG, L. Required for nfe.', 'UN').optional(),
    barcode: z
      .string()
      .meta({ description: 'GTIN-8/12/13/14, check digit verified; omitted → the XML carries "SEM GTIN".', examples: ['7891000315507'] })
      .optional(),
    code: text(60, 'Additive: product code (cProd); default the line number.', 'SKU-001').optional(),
    discount: decimal('NF-e product discount, ≥ 0, 2 places; not above the gross line amount.', '0').optional(),
    freight: decimal('Freight apportioned to the line, ≥ 0, 2 places.', '0').optional(),
    insurance: decimal('Insurance, ≥ 0, 2 places.', '0').optional(),
    other_expenses: decimal('Other expenses, ≥ 0, 2 places.', '0').optional(),
    br: brProductSchema.optional(),
  })
  .meta({
    description:
      'The goods (NF-e). For nfse only `quantity` is read; `br`, `unit`, `barcode` and `code` are ignored, and the NF-e amounts (discount, freight, insurance, other_expenses) are refused: a service discount is the item `discount`.',
  });

export const itemSchema = z
  .strictObject({
    description: text(120, 'Text shown on the document (xProd; NFS-e: joined into xDescServ), 1–120 characters.', 'Camiseta algodão'),
    unit_price: decimal('Price of one unit, > 0, up to 10 decimal places. Send this, amount, or both.', '49.90').optional(),
    amount: decimal(
      'Gross line total before discount, freight, insurance and other expenses, > 0, 2 places. Send this, unit_price, or both.',
      '99.80',
    ).optional(),
    product: productSchema.optional(),
    discount: decimal(
      'nfse: unconditional service discount, ≥ 0, 2 places; comes off the taxable amount. (nfe: product.discount.)',
      '0',
    ).optional(),
    service_code: z
      .string()
      .regex(/^(\d{1,2}\.\d{2}(\.\d{2})?|\d{6})$/, { message: 'Must be a national service code such as "1.07", "01.07.02" or "010702"' })
      .meta({
        description:
          'nfse: national service list item (cTribNac): "1.07" (item.subitem, desdobro 01), "01.07.02" or "010702". Omitted → the company default.',
        examples: ['1.07'],
      })
      .optional(),
    tax_retained: z
      .boolean()
      .meta({
        description:
          'nfse: ISS withheld by the buyer (DPS tpRetISSQN 2; false or omitted → 1, not withheld). Every item of one NFS-e must agree.',
      })
      .optional(),
    observations: text(
      2000,
      "nfse: printed on the document body (DPS xInfComp), up to 2000 characters; shares xInfComp with the other items' observations and additional_info.",
      'Referente ao contrato 12/2026',
    ).optional(),
    ibs_cbs: ibsCbsSchema
      .meta({
        description: 'Additive, nfse only: the IBS/CBS group of a service line (an NFS-e ignores product.br). nfe: product.br.ibs_cbs.',
      })
      .optional(),
  })
  .meta({ description: 'A line. At least one of unit_price and amount.' });

export const paymentSchema = z
  .strictObject({
    method: z.enum(Object.keys(PAYMENT_METHODS) as [PaymentMethod, ...PaymentMethod[]]).meta({ description: 'Payment method (tPag).' }),
    amount: decimal(
      'Amount paid with this method (vPag), up to 2 places; default the document total (single entry only).',
      '99.80',
    ).optional(),
    description: text(60, 'xPag, for method "other".', 'Permuta').optional(),
  })
  .meta({ description: 'A payment.' });

/** "001" or 1: the spec types series and number as strings of digits; integers are accepted too. */
const digitsOrInteger = (maxDigits: number, description: string, example: string) =>
  z
    .union([z.string().regex(new RegExp(`^\\d{1,${maxDigits}}$`), { message: `Must be 1 to ${maxDigits} digits` }), z.number().int()])
    .meta({ description: `${description} A string of digits (as the spec types it) or an integer.`, examples: [example] });

export const invoiceRequestSchema = z
  .strictObject({
    document_type: z
      .enum(['nfe', 'nfse'])
      .meta({ description: 'nfe: goods invoice (NF-e model 55). nfse: service invoice (NFS-e Nacional, DPS).' }),
    client_name: text(
      120,
      'Recipient legal name, 1–120 characters. nfe: the NF-e carries 2–60 (dest/xNome): a longer name is refused, never cut. In homologation the authorizer receives the mandatory test phrase instead.',
      'Maria da Silva',
    ),
    tax_id: z.string().meta({
      description:
        'Recipient CPF (11 digits) or CNPJ (14 characters: 12 letters A–Z or digits, then 2 digits — the alphanumeric CNPJ); the length decides. Shape only, no punctuation, no check-digit test. nfse: numeric CNPJ only (DPS v1.01). Recipient abroad (recipient_address.country_code ≠ BR): the foreign id, empty or 5–20 characters.',
      examples: ['12345678909', '11222333000181', '12ABC34501DE35'],
    }),
    items: z.array(itemSchema).min(1).max(990).meta({ description: 'Lines: 1–990.' }),
    recipient_address: addressSchema.optional(),
    series: digitsOrInteger(3, 'Series 0–999; default the company series.', '1').optional(),
    number: digitsOrInteger(9, 'Number 1–999999999; default the next number of the series.', '1').optional(),
    contingency: z
      .boolean()
      .meta({ description: 'nfe only: issue in contingency (SVC) when the state authorizer is down. Default false.' })
      .optional(),
    client_state_registration: z
      .string()
      .regex(/^(ISENTO|\d{2,14})$/, { message: 'Must be 2–14 digits or ISENTO' })
      .meta({
        description: 'Additive: recipient state registration (IE) digits, or ISENTO (indIEDest 2). Absent → non-contributor (indIEDest 9).',
        examples: ['110042490114'],
      })
      .optional(),
    client_email: z
      .email()
      .max(60)
      .meta({ description: 'Additive: recipient e-mail (≤ 60).', examples: ['maria@example.com'] })
      .optional(),
    client_phone: z
      .string()
      .regex(/^\d{6,14}$/, { message: 'Must be 6–14 digits' })
      .meta({ description: 'Additive: recipient phone, 6–14 digits.', examples: ['11987654321'] })
      .optional(),
    operation_nature: text(60, 'Additive, nfe: natOp; default "VENDA".', 'VENDA').optional(),
    purpose: z
      .enum(['normal', 'complementary', 'adjustment', 'return'])
      .meta({ description: 'Additive, nfe: finNFe; default normal.' })
      .optional(),
    referenced_keys: z
      .array(z.string().regex(/^\d{6}[0-9A-Z]{12}\d{26}$/, { message: 'Must be a 44-character access key' }))
      .min(1)
      .max(999)
      .meta({ description: 'Additive, nfe: NFref/refNFe, access keys of referenced NF-e; required for complementary and return.' })
      .optional(),
    final_consumer: z
      .boolean()
      .meta({ description: 'Additive: indFinal; default true for a CPF recipient or one without state registration.' })
      .optional(),
    presence: z
      .enum(Object.keys(PRESENCES) as [keyof typeof PRESENCES, ...(keyof typeof PRESENCES)[]])
      .meta({ description: 'Additive, nfe: indPres; default in_person.' })
      .optional(),
    payment: z
      .array(paymentSchema)
      .min(1)
      .max(100)
      .meta({ description: 'Additive, nfe: payments (pag). Default: see the fiscal-model README.' })
      .optional(),
    additional_info: text(
      5000,
      "Additive: infCpl (NF-e, ≤ 5000) / xInfComp (NFS-e, ≤ 2000 together with the items' observations).",
      'Pedido 1234',
    ).optional(),
  })
  .meta({ description: 'Invoice request (SPEC.md "Invoice request"), plus the additive fields marked so.' });

export type InvoiceRequestInput = z.input<typeof invoiceRequestSchema>;
export type InvoiceRequestParsed = z.output<typeof invoiceRequestSchema>;
export type ItemParsed = InvoiceRequestParsed['items'][number];
export type AddressParsed = NonNullable<InvoiceRequestParsed['recipient_address']>;

/** JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of the request body, with descriptions and examples. */
export function invoiceRequestJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(invoiceRequestSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}
