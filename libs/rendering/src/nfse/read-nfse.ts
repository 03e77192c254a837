// Reads an authorized NFS-e Nacional (cStat 100) into what the DANFSe prints. Municipality names the XML leaves out
// (it carries IBGE codes) come from fiscal-model's IBGE table. Codes print with their meaning, as NT 008 shows them.
import { findMunicipality } from '@talao/fiscal-model';
import { UnrenderableDocumentError } from '../errors.js';
import { formatDecimal, formatMoney, formatPostalCode, joinPresent } from '../format/text.js';
import { attributeAt, nodeAt, textAt, type XmlObject } from '../format/xml-read.js';
import type { DanfseModel, DanfsePerson, DanfseReform } from './danfse-model.js';

const TAXATION: Readonly<Record<string, string>> = {
  '1': 'Operação tributável',
  '2': 'Imunidade',
  '3': 'Exportação de serviço',
  '4': 'Não incidência',
};
const ISS_RETENTION: Readonly<Record<string, string>> = { '1': 'Não retido', '2': 'Retido pelo tomador', '3': 'Retido pelo intermediário' };
const SIMPLES: Readonly<Record<string, string>> = {
  '1': 'Não optante',
  '2': 'Optante - Microempreendedor Individual (MEI)',
  '3': 'Optante - Microempresa ou Empresa de Pequeno Porte (ME/EPP)',
};
const SIMPLES_REGIME: Readonly<Record<string, string>> = {
  '1': 'Tributos federais e municipal pelo Simples Nacional',
  '2': 'Federais pelo SN e ISSQN por fora do SN',
  '3': 'Federais e municipal por fora do SN',
};
const SPECIAL_REGIME: Readonly<Record<string, string>> = {
  '0': 'Nenhum',
  '1': 'Ato cooperado',
  '2': 'Estimativa',
  '3': 'Microempresa municipal',
  '4': 'Notário ou registrador',
  '5': 'Profissional autônomo',
  '6': 'Sociedade de profissionais',
  '9': 'Outros',
};
const ISSUED_BY: Readonly<Record<string, string>> = { '1': 'Prestador', '2': 'Tomador', '3': 'Intermediário' };
const GENERATOR: Readonly<Record<string, string>> = { '1': 'Prefeitura', '2': 'Sistema Nacional da NFS-e' };
const PIS_COFINS_RETENTION: Readonly<Record<string, string>> = {
  '0': 'PIS/COFINS/CSLL não retidos',
  '1': 'PIS/COFINS retidos',
  '2': 'PIS/COFINS não retidos',
  '3': 'PIS/COFINS/CSLL retidos',
  '4': 'PIS/COFINS retidos, CSLL não retido',
  '5': 'PIS retido, COFINS/CSLL não retidos',
  '6': 'COFINS retido, PIS/CSLL não retidos',
  '7': 'PIS não retido, COFINS/CSLL retidos',
  '8': 'PIS/COFINS não retidos, CSLL retido',
  '9': 'COFINS não retido, PIS/CSLL retidos',
};

const t = (node: XmlObject | undefined, path: string): string => textAt(node, path) ?? '';

function cityName(code: string, fallback = ''): string {
  if (!code) return fallback;
  const city = findMunicipality(code);
  return city ? `${city.name} - ${city.state}` : fallback || code;
}

function person(node: XmlObject | undefined): DanfsePerson | undefined {
  if (!node) return undefined;
  const end = nodeAt(node, 'end');
  const national = nodeAt(end, 'endNac');
  const foreign = nodeAt(end, 'endExt');
  return {
    taxId: t(node, 'CNPJ') || t(node, 'CPF') || t(node, 'NIF'),
    municipalRegistration: t(node, 'IM'),
    phone: t(node, 'fone'),
    name: t(node, 'xNome'),
    city: national
      ? cityName(t(national, 'cMun'))
      : joinPresent([t(foreign, 'xCidade'), t(foreign, 'xEstProvReg'), t(foreign, 'cPais')], ' - '),
    postalCode: national ? formatPostalCode(t(national, 'CEP')) : t(foreign, 'cEndPost'),
    address: joinPresent([t(end, 'xLgr'), t(end, 'nro'), t(end, 'xCpl'), t(end, 'xBairro')]),
    email: t(node, 'email'),
  };
}

function approximateTaxes(totTrib: XmlObject | undefined): string {
  const prefix = 'Totais aproximados dos tributos cfe. Lei nº 12.741/2012:';
  const money = nodeAt(totTrib, 'vTotTrib');
  if (money)
    return `${prefix} Federais: R$ ${formatMoney(t(money, 'vTotTribFed'))}; Estaduais: R$ ${formatMoney(t(money, 'vTotTribEst'))}; Municipais: R$ ${formatMoney(t(money, 'vTotTribMun'))}`;
  const rate = nodeAt(totTrib, 'pTotTrib');
  if (rate)
    return `${prefix} Federais: ${formatDecimal(t(rate, 'pTotTribFed'))}%; Estaduais: ${formatDecimal(t(rate, 'pTotTribEst'))}%; Municipais: ${formatDecimal(t(rate, 'pTotTribMun'))}%`;
  const simples = t(totTrib, 'pTotTribSN');
  if (simples) return `${prefix} Simples Nacional: ${formatDecimal(simples)}%`;
  return `${prefix} não informados`;
}

function reformOf(inf: XmlObject | undefined, dps: XmlObject | undefined): DanfseReform | undefined {
  const computed = nodeAt(inf, 'IBSCBS');
  const declared = nodeAt(dps, 'IBSCBS');
  if (!computed && !declared) return undefined;
  const values = nodeAt(computed, 'valores');
  const totals = nodeAt(computed, 'totCIBS');
  return {
    cst: t(declared, 'valores/trib/gIBSCBS/CST'),
    classification: t(declared, 'valores/trib/gIBSCBS/cClassTrib'),
    operationIndicator: t(declared, 'cIndOp'),
    place: joinPresent([t(computed, 'cLocalidadeIncid'), t(computed, 'xLocalidadeIncid')], ' - '),
    base: t(values, 'vBC'),
    stateRate: t(values, 'uf/pIBSUF'),
    stateEffectiveRate: t(values, 'uf/pAliqEfetUF'),
    cityRate: t(values, 'mun/pIBSMun'),
    cityEffectiveRate: t(values, 'mun/pAliqEfetMun'),
    cbsRate: t(values, 'fed/pCBS'),
    cbsEffectiveRate: t(values, 'fed/pAliqEfetCBS'),
    ibsState: t(totals, 'gIBS/gIBSUFTot/vIBSUF'),
    ibsCity: t(totals, 'gIBS/gIBSMunTot/vIBSMun'),
    ibsTotal: t(totals, 'gIBS/vIBSTot'),
    cbs: t(totals, 'gCBS/vCBS'),
    totalWithReform: t(totals, 'vTotNF'),
  };
}

const isPositive = (value: string) => /^\d+(\.\d+)?$/.test(value) && /[1-9]/.test(value);

/** Reads the NFSe root; throws UnrenderableDocumentError when it is not an authorized NFS-e with its DPS. */
export function readNfse(root: XmlObject): DanfseModel {
  const inf = nodeAt(root, 'infNFSe');
  const dps = nodeAt(inf, 'DPS/infDPS');
  if (!inf || !dps) throw new UnrenderableDocumentError('NFSe: <infNFSe> with the <DPS><infDPS> it authorized is missing');
  const accessKey = (attributeAt(inf, 'Id') ?? '').replace(/^NFS/, '');
  if (!/^\d{50}$/.test(accessKey)) throw new UnrenderableDocumentError('NFSe: infNFSe Id is not "NFS" followed by the 50-digit access key');
  const status = t(inf, 'cStat');
  if (status !== '100')
    throw new UnrenderableDocumentError(`NFSe: cStat ${status || '(none)'}; only an authorized NFS-e (100) has a DANFSe`);
  const emit = nodeAt(inf, 'emit');
  const prest = nodeAt(dps, 'prest');
  const services = nodeAt(dps, 'serv');
  const trib = nodeAt(dps, 'valores/trib');
  const mun = nodeAt(trib, 'tribMun');
  const fed = nodeAt(trib, 'tribFed');
  const values = nodeAt(inf, 'valores');
  const emitAddress = nodeAt(emit, 'enderNac');
  const retention = t(mun, 'tpRetISSQN');
  const federalRetained = ['vRetIRRF', 'vRetCP', 'vRetCSLL'].some((name) => isPositive(t(fed, name)));
  const benefit = nodeAt(mun, 'BM');
  const suspension = nodeAt(mun, 'exigSusp');
  const toma = person(nodeAt(dps, 'toma'));
  return {
    accessKey,
    number: t(inf, 'nNFSe'),
    competence: t(dps, 'dCompet'),
    processedAt: t(inf, 'dhProc'),
    dpsNumber: t(dps, 'nDPS'),
    dpsSeries: t(dps, 'serie'),
    dpsIssuedAt: t(dps, 'dhEmi'),
    issuedBy: ISSUED_BY[t(dps, 'tpEmit')] ?? t(dps, 'tpEmit'),
    purpose: t(dps, 'subst/chSubstda') ? 'NFS-e substituta' : 'NFS-e regular',
    environment: t(dps, 'tpAmb'),
    generatorEnvironment: GENERATOR[t(inf, 'ambGer')] ?? t(inf, 'ambGer'),
    issuePlace: t(inf, 'xLocEmi') || cityName(t(dps, 'cLocEmi')),
    provider: {
      taxId: t(emit, 'CNPJ') || t(emit, 'CPF') || t(prest, 'CNPJ') || t(prest, 'CPF'),
      municipalRegistration: t(emit, 'IM') || t(prest, 'IM'),
      phone: t(emit, 'fone') || t(prest, 'fone'),
      name: t(emit, 'xNome') || t(prest, 'xNome'),
      city: cityName(t(emitAddress, 'cMun'), joinPresent([t(inf, 'xLocEmi'), t(emitAddress, 'UF')], ' - ')),
      postalCode: formatPostalCode(t(emitAddress, 'CEP')),
      address: joinPresent([t(emitAddress, 'xLgr'), t(emitAddress, 'nro'), t(emitAddress, 'xCpl'), t(emitAddress, 'xBairro')]),
      email: t(emit, 'email') || t(prest, 'email'),
      simplesNacional: SIMPLES[t(prest, 'regTrib/opSimpNac')] ?? '',
      simplesRegime: SIMPLES_REGIME[t(prest, 'regTrib/regApTribSN')] ?? '',
    },
    taker: toma,
    recipient: person(nodeAt(dps, 'IBSCBS/dest')),
    intermediary: person(nodeAt(dps, 'interm')),
    service: {
      nationalCode: t(services, 'cServ/cTribNac'),
      municipalCode: t(services, 'cServ/cTribMun'),
      nbs: t(services, 'cServ/cNBS'),
      place: t(inf, 'xLocPrestacao') || cityName(t(services, 'locPrest/cLocPrestacao')) || t(services, 'locPrest/cPaisPrestacao'),
      codeDescription: t(inf, 'xTribNac'),
      description: t(services, 'cServ/xDescServ'),
    },
    municipalTax: {
      taxation: TAXATION[t(mun, 'tribISSQN')] ?? t(mun, 'tribISSQN'),
      incidencePlace: t(inf, 'xLocIncid') || cityName(t(inf, 'cLocIncid')),
      specialRegime: SPECIAL_REGIME[t(prest, 'regTrib/regEspTrib')] ?? '',
      immunity: t(mun, 'tpImunidade'),
      suspension: suspension ? joinPresent([t(suspension, 'tpSusp'), t(suspension, 'nProcesso')], ' - ') : '',
      benefit: benefit ? joinPresent([t(benefit, 'nBM'), t(benefit, 'vRedBCBM') || t(benefit, 'pRedBCBM')], ' - ') : '',
      deductions: t(values, 'vCalcDR'),
      unconditionalDiscount: t(dps, 'valores/vDescCondIncond/vDescIncond'),
      base: t(values, 'vBC'),
      rate: t(values, 'pAliqAplic') || t(mun, 'pAliq'),
      retention: ISS_RETENTION[retention] ?? retention,
      issqn: t(values, 'vISSQN'),
    },
    federalTax: {
      irrf: t(fed, 'vRetIRRF'),
      socialSecurity: t(fed, 'vRetCP'),
      csll: t(fed, 'vRetCSLL'),
      pis: t(fed, 'piscofins/vPis'),
      cofins: t(fed, 'piscofins/vCofins'),
      pisCofinsRetention: PIS_COFINS_RETENTION[t(fed, 'piscofins/tpRetPisCofins')] ?? '',
    },
    reform: reformOf(inf, dps),
    totals: {
      service: t(dps, 'valores/vServPrest/vServ'),
      unconditionalDiscount: t(dps, 'valores/vDescCondIncond/vDescIncond'),
      conditionalDiscount: t(dps, 'valores/vDescCondIncond/vDescCond'),
      retentions: t(values, 'vTotalRet'),
      net: t(values, 'vLiq'),
    },
    complementary: [
      t(dps, 'subst/chSubstda') ? `NFS-e Subst.: ${t(dps, 'subst/chSubstda')}` : '',
      t(services, 'infoCompl/xInfComp'),
      t(inf, 'xOutInf'),
      approximateTaxes(nodeAt(trib, 'totTrib')),
    ].filter(Boolean),
    hasRetention: retention === '2' || retention === '3' || federalRetained || isPositive(t(values, 'vTotalRet')),
  };
}
