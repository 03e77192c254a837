// computeDpsDocument: one DPS from a validated NFS-e request. The items share one service code and one ISS
// withholding (validated), so they combine: descriptions joined with "; " (xDescServ), observations and
// additional_info joined in xInfComp, vServ = Σ gross (an NFS-e item has no freight, insurance or other expenses;
// they are 0), unconditional discount = Σ discounts.
import { Dec, money, sum } from '../decimal/money.js';
import { parseTaxId } from '../identifiers/tax-id.js';
import type { IssuerProfile } from '../request/issuer-profile.js';
import type { ValidatedInvoiceRequest, ValidatedItem } from '../request/validated-request.js';
import { findState } from '../tables/ibge.js';
import { dpsComplementaryText } from '../request/dps-text.js';
import { DEFAULT_APPLICATION_VERSION, HOMOLOGATION_RECIPIENT_NAME } from './compute-nfe.js';
import type { DpsDocument, DpsPerson, DpsProvider } from './dps-document.js';
import { localTime } from './issue-time.js';

export interface DpsContext {
  readonly environment: 'homologation' | 'production';
  readonly series: number;
  readonly number: number;
  readonly issuedAt: Date;
  /** verAplic, ≤ 20 characters. */
  readonly applicationVersion?: string;
}

const OP_SIMPLES: Record<IssuerProfile['taxRegime'], '1' | '2' | '3'> = {
  normal: '1',
  simples_nacional_excess: '3',
  simples_nacional: '3',
  mei: '2',
};

/** "DPS" + cMun(7) + tpInsc(1 CPF, 2 CNPJ) + inscription(14) + serie(5) + nDPS(15). Numeric by the v1.01 schema. */
export function dpsId(cityCode: string, taxId: string, series: number, number: number): string {
  const parsed = parseTaxId(taxId);
  if (!parsed) throw new RangeError('the issuer tax id is not a CPF or CNPJ');
  if (!/^\d+$/.test(parsed.value)) throw new RangeError('DPS v1.01 accepts numeric CNPJ only (TSIdDPS is 42 digits)');
  if (!Number.isInteger(series) || series < 0 || series > 99999) throw new RangeError('DPS series must be 0-99999');
  if (!Number.isInteger(number) || number < 1 || number > 999_999_999_999_999) throw new RangeError('DPS number must be 1-999999999999999');
  return `DPS${cityCode}${parsed.kind === 'cnpj' ? '2' : '1'}${parsed.value.padStart(14, '0')}${String(series).padStart(5, '0')}${String(number).padStart(15, '0')}`;
}

function toma(request: ValidatedInvoiceRequest, environment: DpsContext['environment']): DpsPerson {
  const b = request.buyer;
  // Abroad, the id the taker's own country gives it (validated non-empty for an NFS-e).
  const id = b.taxId ? (b.taxId.kind === 'cnpj' ? { CNPJ: b.taxId.value } : { CPF: b.taxId.value }) : { NIF: b.foreignId! };
  const a = b.address;
  return {
    ...id,
    // SPEC.md "What the service does" 8: in homologation the recipient name sent is the test phrase, for both types.
    xNome: environment === 'homologation' ? HOMOLOGATION_RECIPIENT_NAME : b.name,
    // Abroad the DPS needs a structured foreign address the request does not carry: it is left out (optional).
    ...(a && !b.foreign
      ? {
          end: {
            endNac: { cMun: a.cityCode, CEP: a.postalCode! },
            xLgr: a.street,
            nro: a.number,
            ...(a.complement ? { xCpl: a.complement } : {}),
            xBairro: a.district,
          },
        }
      : {}),
    ...(b.phone ? { fone: b.phone } : {}),
    ...(b.email ? { email: b.email } : {}),
  };
}

/**
 * totTrib: a MEI may leave the approximate taxes out (indTotTrib 0); the national environment refuses that from anyone
 * else (E0712 for an ME/EPP, E0713 outside the Simples), who sends the percentages of its profile (pTotTrib).
 */
function approximateTaxBurden(issuer: IssuerProfile): DpsDocument['valores']['trib']['totTrib'] {
  if (issuer.taxRegime === 'mei') return { indTotTrib: '0' };
  const taxes = issuer.approximateTaxes;
  if (!taxes) throw new RangeError('an NFS-e provider other than a MEI needs its approximate taxes (Lei 12.741/2012)');
  return { pTotTrib: { pTotTribFed: taxes.federal, pTotTribEst: taxes.state, pTotTribMun: taxes.municipal } };
}

/** The DPS's service value (Σ gross + freight + insurance + other expenses) and its unconditional discount (Σ discounts). */
function dpsServiceValues(items: readonly ValidatedItem[]): { vServ: Dec; discount: Dec } {
  return {
    vServ: sum(items.map((i) => new Dec(i.gross).plus(i.freight).plus(i.insurance).plus(i.otherExpenses))),
    discount: sum(items.map((i) => i.discount)),
  };
}

/** The total of the DPS computeDpsDocument gives these items: the service value less the unconditional discount. */
export function dpsTotal(items: readonly ValidatedItem[]): string {
  const { vServ, discount } = dpsServiceValues(items);
  return money(vServ.minus(discount));
}

export function computeDpsDocument(request: ValidatedInvoiceRequest, issuer: IssuerProfile, context: DpsContext): DpsDocument {
  if (request.documentType !== 'nfse') throw new RangeError('computeDpsDocument needs an nfse request');
  const state = findState(issuer.address.state);
  if (!state) throw new RangeError(`unknown issuer state ${issuer.address.state}`);
  const time = localTime(context.issuedAt, state.uf);
  const taxId = parseTaxId(issuer.taxId)!;
  const id = dpsId(issuer.address.cityCode, issuer.taxId, context.series, context.number);
  const opSimpNac = OP_SIMPLES[issuer.taxRegime];
  const prest: DpsProvider = {
    ...(taxId.kind === 'cnpj' ? { CNPJ: taxId.value } : { CPF: taxId.value }),
    ...(issuer.municipalRegistration ? { IM: issuer.municipalRegistration } : {}),
    ...(issuer.address.phone ? { fone: issuer.address.phone } : {}),
    ...(issuer.email ? { email: issuer.email } : {}),
    // regApTribSN (TSRegimeApuracaoSimpNac): 1, federal and municipal taxes through the Simples; 2, federal through the
    // Simples and the ISSQN outside it, as a company past the sublimit (CRT 2) owes it (LC 123/2006 art. 20 §1).
    regTrib: {
      opSimpNac,
      ...(opSimpNac === '3' ? { regApTribSN: issuer.taxRegime === 'simples_nacional_excess' ? ('2' as const) : ('1' as const) } : {}),
      regEspTrib: '0',
    },
  };
  const items = request.items;
  const { vServ, discount } = dpsServiceValues(items);
  const first = items[0]!;
  const ibs = first.ibsCbs;
  const operationIndicator = ibs?.operation_indicator ?? issuer.defaultOperationIndicator;
  const complement = dpsComplementaryText(items, request.additionalInfo);
  if (ibs && !operationIndicator)
    throw new RangeError('IBS/CBS on a DPS needs cIndOp (ibs_cbs.operation_indicator or the company default)');
  return {
    id,
    tpAmb: context.environment === 'production' ? '1' : '2',
    dhEmi: time.dateTime,
    verAplic: (context.applicationVersion ?? DEFAULT_APPLICATION_VERSION).slice(0, 20),
    serie: String(context.series),
    nDPS: String(context.number),
    dCompet: time.date,
    tpEmit: '1',
    cLocEmi: issuer.address.cityCode,
    prest,
    toma: toma(request, context.environment),
    serv: {
      // Place of service: the provider's municipality (the common case; the request has no field for another).
      locPrest: { cLocPrestacao: issuer.address.cityCode },
      cServ: { cTribNac: first.serviceCode!, xDescServ: items.map((i) => i.description).join('; ') },
      ...(complement ? { infoCompl: { xInfComp: complement } } : {}),
    },
    valores: {
      vServPrest: { vServ: money(vServ) },
      ...(discount.gt(0) ? { vDescCondIncond: { vDescIncond: money(discount) } } : {}),
      // Every item agrees on tax_retained (validated): 2 = withheld by the taker, 1 = not withheld.
      trib: { tribMun: { tribISSQN: '1', tpRetISSQN: first.taxRetained ? '2' : '1' }, totTrib: approximateTaxBurden(issuer) },
    },
    ...(ibs
      ? {
          IBSCBS: {
            finNFSe: '0',
            indFinal: request.finalConsumer ? '1' : '0',
            cIndOp: operationIndicator!,
            indDest: '0',
            valores: { trib: { gIBSCBS: { CST: ibs.cst, cClassTrib: ibs.classification } } },
          },
        }
      : {}),
  };
}
