// Reads an authorized NF-e (nfeProc: the signed NFe and the authorizer's protNFe) into what the DANFE prints.
// Only an authorized document has a DANFE: a protNFe with cStat 100 (or 150, authorized out of time) and the same key.
import { UnrenderableDocumentError } from '../errors.js';
import { joinPresent } from '../format/text.js';
import { attributeAt, nodeAt, nodesAt, textAt, variantOf, type XmlObject } from '../format/xml-read.js';
import type {
  DanfeAddress,
  DanfeBilling,
  DanfeIssuer,
  DanfeItem,
  DanfeModel,
  DanfeParty,
  DanfeReformTotals,
  DanfeTotals,
  DanfeTransport,
} from './danfe-model.js';

const AUTHORIZED_STATUSES = new Set(['100', '150']);

const PAYMENT_METHODS: Readonly<Record<string, string>> = {
  '01': 'Dinheiro',
  '02': 'Cheque',
  '03': 'Cartão de Crédito',
  '04': 'Cartão de Débito',
  '05': 'Crédito Loja',
  '10': 'Vale Alimentação',
  '11': 'Vale Refeição',
  '12': 'Vale Presente',
  '13': 'Vale Combustível',
  '15': 'Boleto Bancário',
  '16': 'Depósito Bancário',
  '17': 'PIX Dinâmico',
  '18': 'Transferência / Carteira Digital',
  '19': 'Programa de Fidelidade',
  '20': 'PIX Estático',
  '21': 'Crédito em Loja',
  '22': 'Pagamento Eletrônico não Informado',
  '90': 'Sem Pagamento',
  '99': 'Outros',
};

const FREIGHT_MODES: Readonly<Record<string, string>> = {
  '0': '0 - Remetente (CIF)',
  '1': '1 - Destinatário (FOB)',
  '2': '2 - Terceiros',
  '3': '3 - Próprio Remetente',
  '4': '4 - Próprio Destinatário',
  '9': '9 - Sem Frete',
};

const t = (node: XmlObject | undefined, path: string): string => textAt(node, path) ?? '';

function address(node: XmlObject | undefined): DanfeAddress {
  return {
    street: joinPresent([t(node, 'xLgr'), t(node, 'nro'), t(node, 'xCpl')]),
    district: t(node, 'xBairro'),
    city: t(node, 'xMun'),
    state: t(node, 'UF'),
    postalCode: t(node, 'CEP'),
    phone: t(node, 'fone'),
  };
}

const taxIdOf = (node: XmlObject | undefined): string => t(node, 'CNPJ') || t(node, 'CPF') || t(node, 'idEstrangeiro');

function issuerOf(emit: XmlObject | undefined): DanfeIssuer {
  const crt = t(emit, 'CRT');
  return {
    name: t(emit, 'xNome'),
    tradeName: t(emit, 'xFant'),
    taxId: taxIdOf(emit),
    stateRegistration: t(emit, 'IE'),
    stateRegistrationSt: t(emit, 'IEST'),
    municipalRegistration: t(emit, 'IM'),
    address: address(nodeAt(emit, 'enderEmit')),
    simplesNacional: crt === '1' || crt === '4',
  };
}

function recipientOf(dest: XmlObject | undefined): DanfeParty | undefined {
  if (!dest) return undefined;
  return { name: t(dest, 'xNome'), taxId: taxIdOf(dest), stateRegistration: t(dest, 'IE'), address: address(nodeAt(dest, 'enderDest')) };
}

function itemOf(det: XmlObject): DanfeItem {
  const prod = nodeAt(det, 'prod');
  const icms = variantOf(nodeAt(det, 'imposto/ICMS'), 'ICMS')?.node;
  const ipi = nodeAt(det, 'imposto/IPI/IPITrib');
  return {
    number: attributeAt(det, 'nItem') ?? '',
    code: t(prod, 'cProd'),
    description: t(prod, 'xProd'),
    additionalInfo: t(det, 'infAdProd'),
    ncm: t(prod, 'NCM'),
    cst: t(icms, 'orig') + (t(icms, 'CST') || t(icms, 'CSOSN')),
    cfop: t(prod, 'CFOP'),
    unit: t(prod, 'uCom'),
    quantity: t(prod, 'qCom'),
    unitPrice: t(prod, 'vUnCom'),
    total: t(prod, 'vProd'),
    discount: t(prod, 'vDesc'),
    icmsBase: t(icms, 'vBC'),
    icmsValue: t(icms, 'vICMS'),
    ipiValue: t(ipi, 'vIPI'),
    icmsRate: t(icms, 'pICMS'),
    ipiRate: t(ipi, 'pIPI'),
  };
}

function totalsOf(tot: XmlObject | undefined): DanfeTotals {
  return {
    icmsBase: t(tot, 'vBC'),
    icms: t(tot, 'vICMS'),
    stBase: t(tot, 'vBCST'),
    st: t(tot, 'vST'),
    importTax: t(tot, 'vII'),
    icmsSender: t(tot, 'vICMSUFRemet'),
    fcpDestination: t(tot, 'vFCPUFDest'),
    pis: t(tot, 'vPIS'),
    products: t(tot, 'vProd'),
    freight: t(tot, 'vFrete'),
    insurance: t(tot, 'vSeg'),
    discount: t(tot, 'vDesc'),
    otherExpenses: t(tot, 'vOutro'),
    ipi: t(tot, 'vIPI'),
    icmsDestination: t(tot, 'vICMSUFDest'),
    approximateTaxes: t(tot, 'vTotTrib'),
    cofins: t(tot, 'vCOFINS'),
    invoice: t(tot, 'vNF'),
  };
}

function reformTotalsOf(total: XmlObject | undefined): DanfeReformTotals | undefined {
  const reform = nodeAt(total, 'IBSCBSTot');
  if (!reform) return undefined;
  return {
    base: t(reform, 'vBCIBSCBS'),
    ibsState: t(reform, 'gIBS/gIBSUF/vIBSUF'),
    ibsCity: t(reform, 'gIBS/gIBSMun/vIBSMun'),
    ibs: t(reform, 'gIBS/vIBS'),
    cbs: t(reform, 'gCBS/vCBS'),
    presumedCredit: t(reform, 'gIBS/vCredPres') || t(reform, 'gCBS/vCredPres'),
    selectiveTax: t(total, 'ISTot/vIS'),
    invoiceWithReform: t(total, 'vNFTot'),
  };
}

function transportOf(transp: XmlObject | undefined): DanfeTransport {
  const carrier = nodeAt(transp, 'transporta');
  const vehicle = nodeAt(transp, 'veicTransp');
  const mode = t(transp, 'modFrete');
  return {
    freightMode: FREIGHT_MODES[mode] ?? mode,
    carrierName: t(carrier, 'xNome'),
    carrierTaxId: taxIdOf(carrier),
    carrierStateRegistration: t(carrier, 'IE'),
    carrierAddress: t(carrier, 'xEnder'),
    carrierCity: t(carrier, 'xMun'),
    carrierState: t(carrier, 'UF'),
    antt: t(vehicle, 'RNTC'),
    plate: t(vehicle, 'placa'),
    plateState: t(vehicle, 'UF'),
    volumes: nodesAt(transp, 'vol').map((vol) => ({
      quantity: t(vol, 'qVol'),
      kind: t(vol, 'esp'),
      brand: t(vol, 'marca'),
      numbering: t(vol, 'nVol'),
      grossWeight: t(vol, 'pesoB'),
      netWeight: t(vol, 'pesoL'),
    })),
  };
}

function billingOf(inf: XmlObject | undefined): DanfeBilling {
  const fat = nodeAt(inf, 'cobr/fat');
  return {
    invoice: fat ? { number: t(fat, 'nFat'), original: t(fat, 'vOrig'), discount: t(fat, 'vDesc'), net: t(fat, 'vLiq') } : undefined,
    installments: nodesAt(inf, 'cobr/dup').map((dup) => ({ number: t(dup, 'nDup'), dueDate: t(dup, 'dVenc'), value: t(dup, 'vDup') })),
    payments: nodesAt(inf, 'pag/detPag').map((p) => ({
      method: PAYMENT_METHODS[t(p, 'tPag')] ?? (t(p, 'xPag') || t(p, 'tPag')),
      value: t(p, 'vPag'),
    })),
    change: t(inf, 'pag/vTroco'),
  };
}

/** Reads the nfeProc root; throws UnrenderableDocumentError when it is not an authorized NF-e of model 55. */
export function readNfeProc(root: XmlObject): DanfeModel {
  const inf = nodeAt(root, 'NFe/infNFe');
  const prot = nodeAt(root, 'protNFe/infProt');
  if (!inf) throw new UnrenderableDocumentError('nfeProc: <NFe><infNFe> is missing');
  if (!prot) throw new UnrenderableDocumentError('nfeProc: <protNFe> is missing; only an authorized NF-e has a DANFE');
  const accessKey = (attributeAt(inf, 'Id') ?? '').replace(/^NFe/, '');
  if (!/^\d{44}$/.test(accessKey))
    throw new UnrenderableDocumentError('nfeProc: infNFe Id is not "NFe" followed by the 44-digit access key');
  const status = t(prot, 'cStat');
  if (!AUTHORIZED_STATUSES.has(status))
    throw new UnrenderableDocumentError(
      `nfeProc: the protocol has cStat ${status || '(none)'}; only an authorized NF-e (100, 150) has a DANFE`,
    );
  if (t(prot, 'chNFe') !== accessKey) throw new UnrenderableDocumentError('nfeProc: the protocol is for another access key');
  const ide = nodeAt(inf, 'ide');
  if (t(ide, 'mod') !== '55')
    throw new UnrenderableDocumentError(`nfeProc: model ${t(ide, 'mod')} is not an NF-e (55); the DANFE layout is for model 55`);
  const issqn = nodeAt(inf, 'total/ISSQNtot');
  const contingencyAt = t(ide, 'dhCont');
  return {
    accessKey,
    number: t(ide, 'nNF'),
    series: t(ide, 'serie'),
    operationType: t(ide, 'tpNF'),
    natureOfOperation: t(ide, 'natOp'),
    issuedAt: t(ide, 'dhEmi'),
    exitAt: t(ide, 'dhSaiEnt'),
    environment: t(ide, 'tpAmb'),
    emissionType: t(ide, 'tpEmis'),
    contingency: contingencyAt ? { at: contingencyAt, reason: t(ide, 'xJust') } : undefined,
    protocol: { number: t(prot, 'nProt'), receivedAt: t(prot, 'dhRecbto') },
    issuer: issuerOf(nodeAt(inf, 'emit')),
    recipient: recipientOf(nodeAt(inf, 'dest')),
    billing: billingOf(inf),
    totals: totalsOf(nodeAt(inf, 'total/ICMSTot')),
    reformTotals: reformTotalsOf(nodeAt(inf, 'total')),
    transport: transportOf(nodeAt(inf, 'transp')),
    items: nodesAt(inf, 'det').map(itemOf),
    issqn: issqn
      ? { municipalRegistration: t(inf, 'emit/IM'), services: t(issqn, 'vServ'), base: t(issqn, 'vBC'), value: t(issqn, 'vISS') }
      : undefined,
    additionalInfo: { taxpayer: t(inf, 'infAdic/infCpl'), fisco: t(inf, 'infAdic/infAdFisco') },
  };
}
