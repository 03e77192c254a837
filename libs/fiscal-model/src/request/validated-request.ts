// The validated, normalized request: JSON-safe (decimals as canonical strings) so it can travel in a job payload,
// with every default resolved and every per-item amount fixed. computeNfeDocument / computeDpsDocument take it.
import type { TaxId } from '../identifiers/tax-id.js';
import type { PaymentMethod, PRESENCES, PURPOSES } from './invoice-request-schema.js';
import type { ibsCbsSchema, taxSchema } from './tax-schema.js';
import type { z } from 'zod';

/** The parsed shape with every `string | number` decimal replaced by its canonical string. */
export type Canonical<T> = undefined extends T ? CanonicalDefined<Exclude<T, undefined>> | undefined : CanonicalDefined<T>;
type CanonicalDefined<T> = [T] extends [string | number]
  ? number extends T
    ? string
    : T
  : T extends object
    ? { [K in keyof T]: Canonical<T[K]> }
    : T;

export type TaxInput = Canonical<z.output<typeof taxSchema>>;
export type IcmsInput = TaxInput['icms'];
export type IbsCbsInput = Canonical<z.output<typeof ibsCbsSchema>>;

export type Destination = 'internal' | 'interstate' | 'foreign';

/** Internal names (district, postalCode) predate the request's `neighborhood` / `zip_code`; stored requests use them. */
export interface ValidatedAddress {
  readonly street: string;
  readonly number: string;
  readonly complement?: string;
  readonly district: string;
  /** IBGE code; "9999999" abroad. */
  readonly cityCode: string;
  /** "EXTERIOR" abroad. */
  readonly cityName: string;
  /** UF; "EX" abroad. */
  readonly state: string;
  readonly postalCode?: string;
  /** ISO alpha-2. */
  readonly countryCode: string;
  /** BACEN code: 1058 for Brazil. */
  readonly bacenCountryCode?: string;
}

export interface ValidatedBuyer {
  readonly taxId?: TaxId;
  /** Foreign buyers: idEstrangeiro (may be ""). */
  readonly foreignId?: string;
  readonly name: string;
  /** IE digits, or "ISENTO". */
  readonly stateRegistration?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly address?: ValidatedAddress;
  readonly foreign: boolean;
}

export interface ValidatedProduct {
  readonly ncm: string;
  readonly cfop: string;
  readonly cest?: string;
  /** A verified GTIN or "SEM GTIN". */
  readonly gtin: string;
  /** CNPJFab (emitted with indEscala N). */
  readonly manufacturerCnpj?: string;
}

/** SPEC.md "Rules on item values", computed: decimal strings in canonical form. */
export interface ItemValues {
  /** Canonical decimal string. */
  readonly quantity: string;
  /** 10 places (derived from amount / quantity when absent). */
  readonly unitPrice: string;
  /** Gross line amount (vProd), 2 places. */
  readonly gross: string;
  readonly discount: string;
  readonly freight: string;
  readonly insurance: string;
  readonly otherExpenses: string;
  /** gross − discount + freight + insurance + other expenses, 2 places. */
  readonly total: string;
}

export interface ValidatedItem extends ItemValues {
  readonly index: number;
  readonly description: string;
  readonly code: string;
  readonly unit: string;
  readonly product?: ValidatedProduct;
  /** NFS-e: cTribNac, 6 digits. */
  readonly serviceCode?: string;
  /** NFS-e: ISS withheld by the buyer (tpRetISSQN 2). Absent = not withheld. */
  readonly taxRetained?: boolean;
  /** NFS-e: text printed on the document body (xInfComp). */
  readonly observations?: string;
  readonly tax?: TaxInput;
  readonly ibsCbs?: IbsCbsInput;
}

export interface ValidatedPayment {
  readonly method: PaymentMethod;
  /** tPag. */
  readonly code: string;
  /** 2 places; "0.00" for "none". */
  readonly amount: string;
  readonly description?: string;
}

export interface ValidatedInvoiceRequest {
  readonly documentType: 'nfe' | 'nfse';
  readonly series?: number;
  readonly number?: number;
  readonly contingency: boolean;
  readonly operationNature: string;
  readonly purpose: keyof typeof PURPOSES;
  readonly referencedKeys: readonly string[];
  readonly finalConsumer: boolean;
  readonly presence: keyof typeof PRESENCES;
  /** idDest (NF-e) from the buyer's address against the issuer's state. */
  readonly destination: Destination;
  readonly buyer: ValidatedBuyer;
  readonly items: readonly ValidatedItem[];
  /** NF-e: resolved payments (defaults applied), vTroco computed by the document. Empty for NFS-e. */
  readonly payments: readonly ValidatedPayment[];
  readonly additionalInfo?: string;
}
