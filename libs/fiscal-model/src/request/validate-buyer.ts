// Buyer rules: tax id by length and shape, address against the IBGE table, destination (idDest) against the
// issuer's state, and the defaults that follow from them (indIEDest, indFinal).
import { parseTaxId } from '../identifiers/tax-id.js';
import { findMunicipality } from '../tables/ibge.js';
import { findCountryName } from '../tables/national-codes.js';
import { type FieldError, fieldError } from './field-error.js';
import type { InvoiceRequestParsed } from './invoice-request-schema.js';
import type { IssuerProfile } from './issuer-profile.js';
import type { Destination, ValidatedAddress, ValidatedBuyer } from './validated-request.js';

type BuyerParsed = InvoiceRequestParsed['buyer'];

export interface BuyerResult {
  readonly buyer: ValidatedBuyer;
  readonly destination: Destination;
}

function validateAddress(
  address: NonNullable<BuyerParsed['address']>,
  documentType: 'nfe' | 'nfse',
  errors: FieldError[],
): ValidatedAddress | undefined {
  const countryCode = address.country_code ?? 'BR';
  const base = { street: address.street, number: address.number, district: address.district, ...(address.complement ? { complement: address.complement } : {}) };
  if (countryCode !== 'BR') {
    const countryName = findCountryName(countryCode);
    if (!countryName) {
      errors.push(fieldError('FIELD_INVALID', 'buyer.address.country_code', 'Unknown ISO 3166 alpha-2 country code', 'an ISO 3166 alpha-2 code', countryCode));
      return undefined;
    }
    if (documentType === 'nfe' && !address.bacen_country_code) {
      errors.push(fieldError('FIELD_REQUIRED', 'buyer.address.bacen_country_code', 'A foreign NF-e buyer needs the BACEN country code (cPais)', '4 digits', null));
      return undefined;
    }
    return {
      ...base,
      cityCode: '9999999',
      cityName: 'EXTERIOR',
      state: 'EX',
      countryCode,
      ...(address.bacen_country_code ? { bacenCountryCode: address.bacen_country_code } : {}),
      ...(address.postal_code ? { postalCode: address.postal_code } : {}),
    };
  }
  let ok = true;
  for (const key of ['city_code', 'state', 'postal_code'] as const) {
    if (address[key] === undefined) {
      errors.push(fieldError('FIELD_REQUIRED', `buyer.address.${key}`, `A Brazilian address needs ${key}`, 'a value', null));
      ok = false;
    }
  }
  if (!ok) return undefined;
  const city = findMunicipality(address.city_code!);
  if (!city) {
    errors.push(fieldError('CITY_CODE_UNKNOWN', 'buyer.address.city_code', 'Not a municipality of the IBGE table', 'an IBGE municipality code', address.city_code));
    return undefined;
  }
  if (city.state !== address.state) {
    errors.push(
      fieldError('STATE_CITY_MISMATCH', 'buyer.address.state', `City ${city.code} (${city.name}) is in ${city.state}`, city.state, address.state),
    );
    return undefined;
  }
  return { ...base, cityCode: city.code, cityName: city.name, state: city.state, postalCode: address.postal_code!, countryCode: 'BR', bacenCountryCode: '1058' };
}

export function validateBuyer(
  buyer: BuyerParsed,
  documentType: 'nfe' | 'nfse',
  issuer: IssuerProfile,
  errors: FieldError[],
): BuyerResult | undefined {
  const before = errors.length;
  const foreign = (buyer.address?.country_code ?? 'BR') !== 'BR';
  let taxId: ValidatedBuyer['taxId'];
  let foreignId: string | undefined;
  if (foreign) {
    foreignId = buyer.tax_id ?? '';
    // idEstrangeiro: empty or 5–20 printable characters (leiaute: ([!-ÿ]{0}|[!-ÿ]{5,20})?)
    if (!/^([A-Za-z0-9.\-/]{5,20})?$/.test(foreignId)) {
      errors.push(fieldError('TAX_ID_INVALID', 'buyer.tax_id', 'A foreign id is empty or has 5 to 20 letters, digits, ".", "-" or "/"', 'empty or 5–20 characters', buyer.tax_id));
    }
  } else if (buyer.tax_id === undefined) {
    errors.push(fieldError('FIELD_REQUIRED', 'buyer.tax_id', 'The buyer CPF or CNPJ is required', 'CPF (11) or CNPJ (14)', null));
  } else {
    const parsed = parseTaxId(buyer.tax_id);
    if (!parsed) {
      errors.push(
        fieldError('TAX_ID_INVALID', 'buyer.tax_id', 'Must be a CPF (11 digits) or a CNPJ (12 letters or digits, then 2 digits)', 'CPF (11) or CNPJ (14)', buyer.tax_id),
      );
    } else if (documentType === 'nfse' && parsed.kind === 'cnpj' && !/^\d{14}$/.test(parsed.value)) {
      // DPS v1.01 (TSCNPJ [0-9]{14}) cannot carry an alphanumeric CNPJ yet; refuse now rather than fail the schema later.
      errors.push(fieldError('TAX_ID_INVALID', 'buyer.tax_id', 'The NFS-e layout (DPS v1.01) accepts numeric CNPJ only', '14 digits', buyer.tax_id));
    } else taxId = parsed;
  }
  if (documentType === 'nfe' && buyer.name.length < 2) {
    errors.push(fieldError('FIELD_INVALID', 'buyer.name', 'The NF-e needs a name of 2 to 60 characters', '2–60 characters', buyer.name));
  }
  let address: ValidatedAddress | undefined;
  if (buyer.address) address = validateAddress(buyer.address, documentType, errors);
  else if (documentType === 'nfe') {
    errors.push(fieldError('ADDRESS_REQUIRED', 'buyer.address', 'The NF-e requires the buyer full address', 'an address', null));
  }
  if (errors.length > before) return undefined;

  const destination: Destination = foreign ? 'foreign' : address && address.state !== issuer.address.state ? 'interstate' : 'internal';
  return {
    destination,
    buyer: {
      ...(taxId ? { taxId } : {}),
      ...(foreignId !== undefined ? { foreignId } : {}),
      name: buyer.name,
      ...(buyer.state_registration ? { stateRegistration: buyer.state_registration } : {}),
      ...(buyer.email ? { email: buyer.email } : {}),
      ...(buyer.phone ? { phone: buyer.phone } : {}),
      ...(address ? { address } : {}),
      foreign,
    },
  };
}

/** indIEDest: 1 contributor with IE, 2 exempt (ISENTO), 9 non-contributor (and always 9 abroad). */
export function stateRegistrationIndicator(buyer: ValidatedBuyer): '1' | '2' | '9' {
  if (buyer.foreign || !buyer.stateRegistration) return '9';
  return buyer.stateRegistration === 'ISENTO' ? '2' : '1';
}
