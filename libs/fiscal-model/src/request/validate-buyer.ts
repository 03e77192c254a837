// The recipient: top-level client_name / tax_id / recipient_address (and the additive client_* fields). Tax id by
// length and shape, address against the IBGE table, destination (idDest) against the issuer's state, and the
// defaults that follow from them (indIEDest, indFinal). The validated shape keeps its internal name, `buyer`.
import { isCnpjShape, isCpfShape } from '../identifiers/tax-id.js';
import { findMunicipality } from '../tables/ibge.js';
import { findCountryName } from '../tables/national-codes.js';
import { type FieldError, type FieldErrorCode, fieldError } from './field-error.js';
import type { AddressParsed, InvoiceRequestParsed } from './invoice-request-schema.js';
import type { IssuerProfile } from './issuer-profile.js';
import { checkLayoutLength, NFE_LIMITS } from './layout-limits.js';
import type { Destination, ValidatedAddress, ValidatedBuyer } from './validated-request.js';

export interface BuyerResult {
  readonly buyer: ValidatedBuyer;
  readonly destination: Destination;
}

const ADDRESS = 'recipient_address';

function validateAddress(address: AddressParsed, documentType: 'nfe' | 'nfse', errors: FieldError[]): ValidatedAddress | undefined {
  const before = errors.length;
  /** Records an error on recipient_address.`key`; undefined, the answer for an address refused. */
  const refuse = (code: FieldErrorCode, key: keyof AddressParsed & string, message: string, expected: string, received: unknown) => {
    errors.push(fieldError(code, `${ADDRESS}.${key}`, message, expected, received));
    return undefined;
  };
  if (documentType === 'nfe') {
    checkLayoutLength(address.street, `${ADDRESS}.street`, documentType, NFE_LIMITS.street, errors);
    checkLayoutLength(address.neighborhood, `${ADDRESS}.neighborhood`, documentType, NFE_LIMITS.neighborhood, errors);
  }
  const countryCode = address.country_code ?? 'BR';
  const base = {
    street: address.street,
    number: address.number,
    district: address.neighborhood,
    ...(address.complement ? { complement: address.complement } : {}),
  };
  if (countryCode !== 'BR') {
    const countryName = findCountryName(countryCode);
    if (!countryName) {
      refuse('FIELD_INVALID', 'country_code', 'Unknown ISO 3166 alpha-2 country code', 'an ISO 3166 alpha-2 code', countryCode);
    } else if (documentType === 'nfe' && !address.bacen_country_code) {
      refuse(
        'FIELD_REQUIRED',
        'bacen_country_code',
        'A recipient abroad on an NF-e needs the BACEN country code (cPais)',
        '4 digits',
        null,
      );
    }
    if (errors.length > before) return undefined;
    return {
      ...base,
      cityCode: '9999999',
      cityName: 'EXTERIOR',
      state: 'EX',
      countryCode,
      ...(address.bacen_country_code ? { bacenCountryCode: address.bacen_country_code } : {}),
      ...(address.zip_code ? { postalCode: address.zip_code } : {}),
    };
  }
  for (const key of ['state', 'zip_code', 'city_code'] as const) {
    if (address[key] === undefined) refuse('FIELD_REQUIRED', key, `A Brazilian address needs ${key}`, 'a value', null);
  }
  if (errors.length > before) return undefined;
  const city = findMunicipality(address.city_code!);
  if (!city) {
    return refuse('CITY_CODE_UNKNOWN', 'city_code', 'Not a municipality of the IBGE table', 'an IBGE municipality code', address.city_code);
  }
  if (city.state !== address.state) {
    return refuse('STATE_CITY_MISMATCH', 'state', `City ${city.code} (${city.name}) is in ${city.state}`, city.state, address.state);
  }
  // `city` (the name as sent) is not compared: the code decides, and the document carries the table's name.
  return {
    ...base,
    cityCode: city.code,
    cityName: city.name,
    state: city.state,
    postalCode: address.zip_code!,
    countryCode: 'BR',
    bacenCountryCode: '1058',
  };
}

function validateTaxId(req: InvoiceRequestParsed, documentType: 'nfe' | 'nfse', foreign: boolean, errors: FieldError[]) {
  const value = req.tax_id;
  if (foreign) {
    // idEstrangeiro: empty or 5–20 printable characters (leiaute: ([!-ÿ]{0}|[!-ÿ]{5,20})?)
    if (!/^([A-Za-z0-9.\-/]{5,20})?$/.test(value)) {
      errors.push(
        fieldError(
          'TAX_ID_INVALID',
          'tax_id',
          'For a recipient abroad tax_id is the foreign id: empty or 5 to 20 letters, digits, ".", "-" or "/"',
          'empty or 5–20 characters',
          value,
        ),
      );
    }
    // The DPS names a taker abroad by its NIF (TCInfoPessoa); an NF-e's idEstrangeiro may be empty.
    else if (documentType === 'nfse' && value === '') {
      errors.push(
        fieldError(
          'TAX_ID_INVALID',
          'tax_id',
          'For a service taker abroad (document_type nfse) tax_id is its foreign tax id (NIF): 5 to 20 letters, digits, ".", "-" or "/"',
          '5–20 characters',
          value,
        ),
      );
    }
    return { foreignId: value };
  }
  // The length decides (11 CPF, 14 CNPJ); shape only, as sent: no punctuation, never an older check-digit rule.
  const taxId =
    value.length === 11 && isCpfShape(value)
      ? ({ kind: 'cpf', value } as const)
      : value.length === 14 && isCnpjShape(value)
        ? ({ kind: 'cnpj', value } as const)
        : undefined;
  if (!taxId) {
    errors.push(
      fieldError(
        'TAX_ID_INVALID',
        'tax_id',
        'Must be a CPF (11 digits) or a CNPJ (14 characters: 12 letters A–Z or digits, then 2 digits), without punctuation',
        'CPF (11) or CNPJ (14)',
        value,
      ),
    );
    return {};
  }
  if (documentType === 'nfse' && taxId.kind === 'cnpj' && !/^\d{14}$/.test(value)) {
    // DPS v1.01 (TSCNPJ [0-9]{14}) cannot carry an alphanumeric CNPJ yet; refuse now rather than fail the schema later.
    errors.push(
      fieldError(
        'TAX_ID_INVALID',
        'tax_id',
        'The NFS-e layout (DPS v1.01) accepts a numeric CNPJ only (document_type nfse)',
        '14 digits for nfse',
        value,
      ),
    );
    return {};
  }
  return { taxId };
}

export function validateBuyer(
  req: InvoiceRequestParsed,
  documentType: 'nfe' | 'nfse',
  issuer: IssuerProfile,
  errors: FieldError[],
): BuyerResult | undefined {
  const before = errors.length;
  const foreign = (req.recipient_address?.country_code ?? 'BR') !== 'BR';
  const { taxId, foreignId } = validateTaxId(req, documentType, foreign, errors);
  // NFS-e: toma/xNome holds 1–300, more than client_name's 120; the NF-e holds 2–60.
  if (documentType === 'nfe') checkLayoutLength(req.client_name, 'client_name', documentType, NFE_LIMITS.clientName, errors);
  let address: ValidatedAddress | undefined;
  if (req.recipient_address) address = validateAddress(req.recipient_address, documentType, errors);
  else if (documentType === 'nfe') {
    errors.push(fieldError('ADDRESS_REQUIRED', ADDRESS, 'An NF-e requires the recipient address', 'an address', null));
  }
  if (errors.length > before) return undefined;

  const destination: Destination = foreign ? 'foreign' : address && address.state !== issuer.address.state ? 'interstate' : 'internal';
  return {
    destination,
    buyer: {
      ...(taxId ? { taxId } : {}),
      ...(foreignId !== undefined ? { foreignId } : {}),
      name: req.client_name,
      ...(req.client_state_registration ? { stateRegistration: req.client_state_registration } : {}),
      ...(req.client_email ? { email: req.client_email } : {}),
      ...(req.client_phone ? { phone: req.client_phone } : {}),
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
