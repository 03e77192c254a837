// total (ICMSTot with the DIFAL totals, IBSCBSTot), transp, pag, infAdic and infRespTec, in the XSD sequence.
import type { NfeIbsCbsTot, NfeInfAdic, NfeInfRespTec, NfePag, NfeTotal, NfeTransp } from '@talao/fiscal-model';
import { element, optionalElement, optionalTextElement as opt, textElement as el, XmlBuildError } from '../../writer/canonical-xml.js';
import { sequenceXml, type SequencePart } from '../../writer/layout-sequence.js';

function ibsCbsTotXml(tot: NfeIbsCbsTot | undefined): string {
  if (!tot) return '';
  const ibs = tot.gIBS;
  const cbs = tot.gCBS;
  return element(
    'IBSCBSTot',
    el('vBCIBSCBS', tot.vBCIBSCBS) +
      element(
        'gIBS',
        element('gIBSUF', el('vDif', ibs.gIBSUF.vDif) + el('vDevTrib', ibs.gIBSUF.vDevTrib) + el('vIBSUF', ibs.gIBSUF.vIBSUF)) +
          element('gIBSMun', el('vDif', ibs.gIBSMun.vDif) + el('vDevTrib', ibs.gIBSMun.vDevTrib) + el('vIBSMun', ibs.gIBSMun.vIBSMun)) +
          el('vIBS', ibs.vIBS) +
          el('vCredPres', ibs.vCredPres) +
          el('vCredPresCondSus', ibs.vCredPresCondSus),
      ) +
      element(
        'gCBS',
        el('vDif', cbs.vDif) +
          el('vDevTrib', cbs.vDevTrib) +
          el('vCBS', cbs.vCBS) +
          el('vCredPres', cbs.vCredPres) +
          el('vCredPresCondSus', cbs.vCredPresCondSus),
      ),
  );
}

const ICMS_TOT = [
  ...([
    'vBC',
    'vICMS',
    'vICMSDeson',
    'vFCPUFDest?',
    'vICMSUFDest?',
    'vICMSUFRemet?',
    'vFCP',
    'vBCST',
    'vST',
    'vFCPST',
    'vFCPSTRet',
  ] as const),
  ...(['qBCMono?', 'vICMSMono?', 'qBCMonoReten?', 'vICMSMonoReten?', 'qBCMonoRet?', 'vICMSMonoRet?'] as const),
  ...(['vProd', 'vFrete', 'vSeg', 'vDesc', 'vII', 'vIPI', 'vIPIDevol', 'vPIS', 'vCOFINS', 'vOutro', 'vNF'] as const),
] satisfies SequencePart<NfeTotal['ICMSTot']>[];

export function totalXml(total: NfeTotal): string {
  const t = total.ICMSTot;
  // The DIFAL totals are minOccurs=0 in ICMSTot: written only when the model computed them (some item has
  // ICMSUFDest), all three or none.
  const difal = [t.vFCPUFDest, t.vICMSUFDest, t.vICMSUFRemet].filter((v) => v !== undefined).length;
  if (difal !== 0 && difal !== 3) throw new XmlBuildError('ICMSTot: vFCPUFDest, vICMSUFDest and vICMSUFRemet go together');
  const icmsTot = sequenceXml('ICMSTot', t, ICMS_TOT);
  return element('total', element('ICMSTot', icmsTot) + ibsCbsTotXml(total.IBSCBSTot));
}

export function transpXml(transp: NfeTransp): string {
  return element('transp', el('modFrete', transp.modFrete));
}

export function pagXml(pag: NfePag): string {
  if (pag.detPag.length < 1 || pag.detPag.length > 100)
    throw new XmlBuildError(`pag.detPag: expected 1–100 entries, received ${pag.detPag.length}`);
  let details = '';
  for (const d of pag.detPag) {
    if (d.tPag === '99' && d.xPag === undefined) throw new XmlBuildError('pag.detPag.xPag: required when tPag is 99');
    details += element(
      'detPag',
      opt('indPag', d.indPag) +
        el('tPag', d.tPag) +
        opt('xPag', d.xPag) +
        el('vPag', d.vPag) +
        (d.card ? element('card', el('tpIntegra', d.card.tpIntegra)) : ''),
    );
  }
  return element('pag', details + opt('vTroco', pag.vTroco));
}

export function infAdicXml(infAdic: NfeInfAdic | undefined): string {
  return optionalElement('infAdic', infAdic && opt('infCpl', infAdic.infCpl));
}

export function infRespTecXml(resp: NfeInfRespTec): string {
  if ((resp.idCSRT === undefined) !== (resp.hashCSRT === undefined)) throw new XmlBuildError('infRespTec: idCSRT and hashCSRT go together');
  return element('infRespTec', sequenceXml('infRespTec', resp, ['CNPJ', 'xContato', 'email', 'fone', 'idCSRT?', 'hashCSRT?']));
}
