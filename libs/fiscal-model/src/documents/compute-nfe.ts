// computeNfeDocument: a validated request + the issuer + the issuance context → the complete NF-e values.
import { createHash } from 'node:crypto';
import { type AccessKeyParts, buildAccessKey } from '../access-key/access-key.js';
import { deriveNumericCode } from '../access-key/numeric-code.js';
import { Dec, money } from '../decimal/money.js';
import { parseTaxId } from '../identifiers/tax-id.js';
import { PRESENCES, PURPOSES } from '../request/invoice-request-schema.js';
import { CRT_BY_REGIME, type IssuerProfile } from '../request/issuer-profile.js';
import { stateRegistrationIndicator } from '../request/validate-buyer.js';
import type { ValidatedInvoiceRequest, ValidatedItem } from '../request/validated-request.js';
import { findMunicipality, findState } from '../tables/ibge.js';
import { takeItemComputation } from './item-computation.js';
import { localTime } from './issue-time.js';
import type { NfeAddress, NfeDest, NfeDocument, NfeEmit, NfeItem, NfePag, NfeProd } from './nfe-document.js';

export const HOMOLOGATION_RECIPIENT_NAME = 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
export const DEFAULT_APPLICATION_VERSION = 'Talao 1.0';

export interface TechnicalResponsible {
  readonly cnpj: string;
  readonly contact: string;
  readonly email: string;
  /** 6–14 digits. */
  readonly phone: string;
  /** The CSRT the state issued to the software house, when it did. */
  readonly csrt?: { readonly id: string; readonly secret: string };
}

export interface NfeContext {
  readonly environment: 'homologation' | 'production';
  readonly series: number;
  readonly number: number;
  readonly invoiceId: string;
  readonly issuedAt: Date;
  readonly contingency?: { readonly type: 'SVC-AN' | 'SVC-RS'; readonly at: Date; readonly reason: string };
  readonly technicalResponsible: TechnicalResponsible;
  /** verProc, ≤ 20 characters. */
  readonly applicationVersion?: string;
}

function issuerTaxId(issuer: IssuerProfile) {
  const taxId = parseTaxId(issuer.taxId);
  if (!taxId) throw new RangeError('the issuer tax id is not a CPF or CNPJ');
  return taxId;
}

function emit(issuer: IssuerProfile): NfeEmit {
  const taxId = issuerTaxId(issuer);
  if (!issuer.stateRegistration) throw new RangeError('the issuer has no state registration (IE): NF-e cannot be issued');
  const city = findMunicipality(issuer.address.cityCode);
  if (!city || city.state !== issuer.address.state) throw new RangeError('the issuer city code does not match its state');
  const a = issuer.address;
  return {
    ...(taxId.kind === 'cnpj' ? { CNPJ: taxId.value } : { CPF: taxId.value }),
    xNome: issuer.legalName,
    ...(issuer.tradeName ? { xFant: issuer.tradeName } : {}),
    enderEmit: {
      xLgr: a.street,
      nro: a.number,
      ...(a.complement ? { xCpl: a.complement } : {}),
      xBairro: a.district,
      cMun: city.code,
      xMun: city.name,
      UF: city.state,
      CEP: a.postalCode,
      cPais: '1058',
      xPais: 'Brasil',
      ...(a.phone ? { fone: a.phone } : {}),
    },
    IE: issuer.stateRegistration,
    ...(issuer.municipalRegistration ? { IM: issuer.municipalRegistration, ...(issuer.cnae ? { CNAE: issuer.cnae } : {}) } : {}),
    CRT: CRT_BY_REGIME[issuer.taxRegime],
  };
}

function dest(request: ValidatedInvoiceRequest, environment: NfeContext['environment']): NfeDest {
  const { buyer } = request;
  const a = buyer.address!;
  const address: NfeAddress = {
    xLgr: a.street,
    nro: a.number,
    ...(a.complement ? { xCpl: a.complement } : {}),
    xBairro: a.district,
    cMun: a.cityCode,
    xMun: a.cityName,
    UF: a.state,
    ...(a.postalCode && !buyer.foreign ? { CEP: a.postalCode } : {}),
    ...(a.bacenCountryCode ? { cPais: a.bacenCountryCode } : {}),
    ...(buyer.phone ? { fone: buyer.phone } : {}),
  };
  const indIEDest = stateRegistrationIndicator(buyer);
  const id = buyer.foreign
    ? { idEstrangeiro: buyer.foreignId ?? '' }
    : buyer.taxId!.kind === 'cnpj'
      ? { CNPJ: buyer.taxId!.value }
      : { CPF: buyer.taxId!.value };
  return {
    ...id,
    xNome: environment === 'homologation' ? HOMOLOGATION_RECIPIENT_NAME : buyer.name,
    enderDest: address,
    indIEDest,
    ...(indIEDest === '1' ? { IE: buyer.stateRegistration! } : {}),
    ...(buyer.email ? { email: buyer.email } : {}),
  };
}

const PLAIN_UNSIGNED = /^\d+(\.\d+)?$/;
const NON_ZERO_DIGIT = /[1-9]/;

function prod(item: ValidatedItem): NfeProd {
  const p = item.product!;
  // Plain non-negative text (as validation writes these amounts) is positive when it has a non-zero digit.
  const positive = (v: string) => ((PLAIN_UNSIGNED.test(v) ? NON_ZERO_DIGIT.test(v) : new Dec(v).gt(0)) ? money(v) : undefined);
  const extras = {
    vFrete: positive(item.freight),
    vSeg: positive(item.insurance),
    vDesc: positive(item.discount),
    vOutro: positive(item.otherExpenses),
  };
  const qCom = new Dec(item.quantity).toFixed(4);
  return {
    cProd: item.code,
    cEAN: p.gtin,
    xProd: item.description,
    NCM: p.ncm,
    // CNPJFab is the manufacturer of goods made in a not relevant scale (indEscala N); validated to come with CEST.
    ...(p.cest ? { CEST: p.cest, ...(p.manufacturerCnpj ? { indEscala: 'N' as const, CNPJFab: p.manufacturerCnpj } : {}) } : {}),
    CFOP: p.cfop,
    uCom: item.unit,
    qCom,
    vUnCom: item.unitPrice,
    vProd: item.gross,
    cEANTrib: p.gtin,
    uTrib: item.unit,
    qTrib: qCom,
    vUnTrib: item.unitPrice,
    ...Object.fromEntries(Object.entries(extras).filter(([, v]) => v !== undefined)),
    indTot: '1',
  };
}

/** What the access key of an NF-e depends on (no item, no tax: the key is known before the document is computed). */
export type NfeKeyContext = Pick<NfeContext, 'series' | 'number' | 'invoiceId' | 'issuedAt' | 'contingency'>;

function accessKeyParts(issuer: IssuerProfile, context: NfeKeyContext): AccessKeyParts {
  const state = findState(issuer.address.state);
  if (!state) throw new RangeError(`unknown issuer state ${issuer.address.state}`);
  return {
    cUF: state.code,
    yearMonth: localTime(context.issuedAt, state.uf).yearMonth,
    cnpjOrCpf: issuerTaxId(issuer).value,
    model: 55,
    series: context.series,
    number: context.number,
    emissionType: context.contingency ? (context.contingency.type === 'SVC-AN' ? 6 : 7) : 1,
    numericCode: deriveNumericCode(context.invoiceId, context.number),
  };
}

/** The access key computeNfeDocument gives the document of this issuer and context (it uses this very function). */
export function nfeAccessKey(issuer: IssuerProfile, context: NfeKeyContext): string {
  return buildAccessKey(accessKeyParts(issuer, context));
}

export function computeNfeDocument(request: ValidatedInvoiceRequest, issuer: IssuerProfile, context: NfeContext): NfeDocument {
  if (request.documentType !== 'nfe') throw new RangeError('computeNfeDocument needs an nfe request');
  const state = findState(issuer.address.state);
  if (!state) throw new RangeError(`unknown issuer state ${issuer.address.state}`);
  const time = localTime(context.issuedAt, state.uf);
  const key = accessKeyParts(issuer, context);
  const { emissionType, numericCode: cNF } = key;
  const accessKey = buildAccessKey(key);
  const { taxes, totals } = takeItemComputation(request.items, request.finalConsumer);
  const det: NfeItem[] = request.items.map((item, i) => ({
    nItem: i + 1,
    prod: prod(item),
    imposto: taxes[i]!.imposto,
    itemTotal: item.total,
  }));
  const indPres = PRESENCES[request.presence];
  if (context.contingency && (context.contingency.reason.length < 15 || context.contingency.reason.length > 256)) {
    throw new RangeError('the contingency reason (xJust) must have 15 to 256 characters');
  }
  const paid = request.payments.reduce((acc, p) => acc.plus(p.amount), new Dec(0));
  const change = paid.minus(totals.vNF);
  const pag: NfePag = {
    detPag: request.payments.map((p) => ({
      tPag: p.code,
      ...(p.description && p.code === '99' ? { xPag: p.description } : {}),
      vPag: p.amount,
      ...(p.code === '03' || p.code === '04' ? { card: { tpIntegra: '2' as const } } : {}),
    })),
    ...(request.payments[0]?.code !== '90' && change.gt(0) ? { vTroco: money(change) } : {}),
  };
  const rt = context.technicalResponsible;
  return {
    accessKey,
    ide: {
      cUF: state.code,
      cNF,
      natOp: request.operationNature,
      mod: '55',
      serie: String(context.series),
      nNF: String(context.number),
      dhEmi: time.dateTime,
      tpNF: '1',
      idDest: request.destination === 'internal' ? '1' : request.destination === 'interstate' ? '2' : '3',
      cMunFG: issuer.address.cityCode,
      tpImp: '1',
      tpEmis: String(emissionType) as '1' | '6' | '7',
      cDV: accessKey.slice(-1),
      tpAmb: context.environment === 'production' ? '1' : '2',
      finNFe: PURPOSES[request.purpose],
      indFinal: request.finalConsumer ? '1' : '0',
      indPres,
      ...(['2', '3', '4', '9'].includes(indPres) ? { indIntermed: '0' as const } : {}),
      procEmi: '0',
      verProc: (context.applicationVersion ?? DEFAULT_APPLICATION_VERSION).slice(0, 20),
      ...(context.contingency
        ? { contingency: { dhCont: localTime(context.contingency.at, state.uf).dateTime, xJust: context.contingency.reason } }
        : {}),
      ...(request.referencedKeys.length > 0 ? { refNFe: request.referencedKeys } : {}),
    },
    emit: emit(issuer),
    dest: dest(request, context.environment),
    det,
    total: { ICMSTot: totals.ICMSTot, ...(totals.IBSCBSTot ? { IBSCBSTot: totals.IBSCBSTot } : {}) },
    transp: { modFrete: '9' },
    pag,
    ...(request.additionalInfo ? { infAdic: { infCpl: request.additionalInfo } } : {}),
    infRespTec: {
      CNPJ: rt.cnpj,
      xContato: rt.contact,
      email: rt.email,
      fone: rt.phone,
      ...(rt.csrt
        ? {
            idCSRT: rt.csrt.id,
            hashCSRT: createHash('sha1')
              .update(rt.csrt.secret + accessKey)
              .digest('base64'),
          }
        : {}),
    },
  };
}
