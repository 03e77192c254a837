// det: prod and imposto (ICMS, IPI, PIS, COFINS, ICMSUFDest, IBSCBS) of one item, in the XSD sequence.
import type { NfeCofins, NfeIbsCbs, NfeIcmsUfDest, NfeIpi, NfeItem, NfePis, NfeProd } from '@talao/fiscal-model';
import { element, optionalTextElement as opt, textElement as el, XmlBuildError } from '../../writer/canonical-xml.js';
import { sequenceXml, type SequencePart } from '../../writer/layout-sequence.js';
import { icmsXml } from './nfe-icms.js';

/** CEST, indEscala, CNPJFab: one optional sequence of the layout, so the last two exist only beside CEST. */
function cestXml(prod: NfeProd): string {
  if (prod.CEST === undefined) {
    if (prod.indEscala !== undefined || prod.CNPJFab !== undefined) throw new XmlBuildError('prod: indEscala and CNPJFab need CEST');
    return '';
  }
  return el('CEST', prod.CEST) + opt('indEscala', prod.indEscala) + opt('CNPJFab', prod.CNPJFab);
}

const PROD = [
  ...([
    'cProd',
    'cEAN',
    'xProd',
    'NCM',
    cestXml,
    'CFOP',
    'uCom',
    'qCom',
    'vUnCom',
    'vProd',
    'cEANTrib',
    'uTrib',
    'qTrib',
    'vUnTrib',
  ] as const),
  ...(['vFrete?', 'vSeg?', 'vDesc?', 'vOutro?', 'indTot'] as const),
] satisfies SequencePart<NfeProd>[];

function ipiXml(ipi: NfeIpi | undefined): string {
  if (!ipi) return '';
  let group: string;
  if (ipi.group === 'IPINT') group = element('IPINT', el('CST', ipi.CST));
  else if ('vBC' in ipi) group = element('IPITrib', el('CST', ipi.CST) + el('vBC', ipi.vBC) + el('pIPI', ipi.pIPI) + el('vIPI', ipi.vIPI));
  else group = element('IPITrib', el('CST', ipi.CST) + el('qUnid', ipi.qUnid) + el('vUnid', ipi.vUnid) + el('vIPI', ipi.vIPI));
  return element('IPI', el('cEnq', ipi.cEnq) + group);
}

/** PIS and COFINS share one shape; `tax` names the prefix (PIS → PISAliq, pPIS, vPIS). */
function socialContributionXml(tax: 'PIS' | 'COFINS', value: NfePis | NfeCofins): string {
  const rate = `p${tax}`;
  const amount = `v${tax}`;
  let body: string;
  switch (value.group) {
    case 'Aliq':
      body = el('CST', value.CST) + el('vBC', value.vBC) + el(rate, value.p) + el(amount, value.v);
      break;
    case 'Qtde':
      body = el('CST', value.CST) + el('qBCProd', value.qBCProd) + el('vAliqProd', value.vAliqProd) + el(amount, value.v);
      break;
    case 'NT':
      body = el('CST', value.CST);
      break;
    case 'Outr':
      body =
        el('CST', value.CST) +
        ('vBC' in value ? el('vBC', value.vBC) + el(rate, value.p) : el('qBCProd', value.qBCProd) + el('vAliqProd', value.vAliqProd)) +
        el(amount, value.v);
      break;
    default:
      throw new XmlBuildError(`${tax}: unknown group ${JSON.stringify((value as { group: unknown }).group)}`);
  }
  return element(tax, element(`${tax}${value.group}`, body));
}

// ICMSUFDest (DIFAL) sits after COFINSST and before IS/IBSCBS in leiauteNFe_v4.00.xsd (TNFe/infNFe/det/imposto).
// vBCFCPUFDest, pFCPUFDest and vFCPUFDest are optional there: the model carries them only with an FCP rate.
function icmsUfDestXml(tax: NfeIcmsUfDest | undefined): string {
  if (!tax) return '';
  if ((tax.pFCPUFDest === undefined) !== (tax.vFCPUFDest === undefined))
    throw new XmlBuildError('ICMSUFDest: pFCPUFDest and vFCPUFDest go together');
  return element('ICMSUFDest', sequenceXml('ICMSUFDest', tax, ICMS_UF_DEST));
}

const ICMS_UF_DEST = [
  ...(['vBCUFDest', 'vBCFCPUFDest?', 'pFCPUFDest?', 'pICMSUFDest', 'pICMSInter', 'pICMSInterPart', 'vFCPUFDest?'] as const),
  ...(['vICMSUFDest', 'vICMSUFRemet'] as const),
] satisfies SequencePart<NfeIcmsUfDest>[];

function ibsCbsXml(tax: NfeIbsCbs | undefined): string {
  if (!tax) return '';
  const g = tax.gIBSCBS;
  const group =
    el('vBC', g.vBC) +
    element('gIBSUF', el('pIBSUF', g.gIBSUF.pIBSUF) + el('vIBSUF', g.gIBSUF.vIBSUF)) +
    element('gIBSMun', el('pIBSMun', g.gIBSMun.pIBSMun) + el('vIBSMun', g.gIBSMun.vIBSMun)) +
    el('vIBS', g.vIBS) +
    element('gCBS', el('pCBS', g.gCBS.pCBS) + el('vCBS', g.gCBS.vCBS));
  return element('IBSCBS', el('CST', tax.CST) + el('cClassTrib', tax.cClassTrib) + element('gIBSCBS', group));
}

export function itemXml(item: NfeItem, expectedNumber: number): string {
  if (item.nItem !== expectedNumber)
    throw new XmlBuildError(`det[${expectedNumber - 1}].nItem: expected ${expectedNumber}, received ${item.nItem}`);
  const tax = item.imposto;
  const imposto =
    icmsXml(tax.ICMS) +
    ipiXml(tax.IPI) +
    socialContributionXml('PIS', tax.PIS) +
    socialContributionXml('COFINS', tax.COFINS) +
    icmsUfDestXml(tax.ICMSUFDest) +
    ibsCbsXml(tax.IBSCBS);
  return element('det', element('prod', sequenceXml('prod', item.prod, PROD)) + element('imposto', imposto), { nItem: String(item.nItem) });
}
