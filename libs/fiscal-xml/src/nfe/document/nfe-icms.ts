// imposto/ICMS: the 21 groups of layout 4.00 (+ NT 2023.001 monophasic groups), each in its XSD sequence.
import type { Deson, DesonSt, Effective, Fcp, FcpStRetained, IcmsSt, NfeIcms, OwnIcms, StRetained } from '@talao/fiscal-model';
import { element, optionalTextElement as opt, textElement as el, XmlBuildError } from '../../writer/canonical-xml.js';

function fcpXml(fcp: Fcp | undefined, withBase: boolean): string {
  if (!fcp) return '';
  if (withBase && fcp.vBCFCP === undefined) throw new XmlBuildError('ICMS fcp.vBCFCP: required in this group');
  return (withBase ? el('vBCFCP', fcp.vBCFCP as string) : '') + el('pFCP', fcp.pFCP) + el('vFCP', fcp.vFCP);
}

function stXml(st: IcmsSt): string {
  return (
    el('modBCST', st.modBCST) +
    opt('pMVAST', st.pMVAST) +
    opt('pRedBCST', st.pRedBCST) +
    el('vBCST', st.vBCST) +
    el('pICMSST', st.pICMSST) +
    el('vICMSST', st.vICMSST) +
    (st.fcpSt ? el('vBCFCPST', st.fcpSt.vBCFCPST) + el('pFCPST', st.fcpSt.pFCPST) + el('vFCPST', st.fcpSt.vFCPST) : '')
  );
}

function desonXml(deson: Deson | undefined): string {
  if (!deson) return '';
  return el('vICMSDeson', deson.vICMSDeson) + el('motDesICMS', deson.motDesICMS) + opt('indDeduzDeson', deson.indDeduzDeson);
}

function desonStXml(deson: DesonSt | undefined): string {
  return deson ? el('vICMSSTDeson', deson.vICMSSTDeson) + el('motDesICMSST', deson.motDesICMSST) : '';
}

function retainedXml(retained: StRetained | undefined): string {
  if (!retained) return '';
  return (
    el('vBCSTRet', retained.vBCSTRet) +
    opt('pST', retained.pST) +
    opt('vICMSSubstituto', retained.vICMSSubstituto) +
    el('vICMSSTRet', retained.vICMSSTRet)
  );
}

function fcpStRetainedXml(fcp: FcpStRetained | undefined): string {
  return fcp ? el('vBCFCPSTRet', fcp.vBCFCPSTRet) + el('pFCPSTRet', fcp.pFCPSTRet) + el('vFCPSTRet', fcp.vFCPSTRet) : '';
}

function effectiveXml(effective: Effective | undefined): string {
  if (!effective) return '';
  return (
    el('pRedBCEfet', effective.pRedBCEfet) +
    el('vBCEfet', effective.vBCEfet) +
    el('pICMSEfet', effective.pICMSEfet) +
    el('vICMSEfet', effective.vICMSEfet)
  );
}

function ownXml(own: OwnIcms): string {
  return el('modBC', own.modBC) + el('vBC', own.vBC) + opt('pRedBC', own.pRedBC) + el('pICMS', own.pICMS) + el('vICMS', own.vICMS);
}

function groupBody(icms: NfeIcms): string {
  const head = el('orig', icms.orig) + ('CST' in icms ? el('CST', icms.CST) : el('CSOSN', icms.CSOSN));
  switch (icms.group) {
    case 'ICMS00':
      return (
        head + el('modBC', icms.modBC) + el('vBC', icms.vBC) + el('pICMS', icms.pICMS) + el('vICMS', icms.vICMS) + fcpXml(icms.fcp, false)
      );
    case 'ICMS02':
      return head + el('qBCMono', icms.qBCMono) + el('adRemICMS', icms.adRemICMS) + el('vICMSMono', icms.vICMSMono);
    case 'ICMS10':
      return (
        head +
        el('modBC', icms.modBC) +
        el('vBC', icms.vBC) +
        el('pICMS', icms.pICMS) +
        el('vICMS', icms.vICMS) +
        fcpXml(icms.fcp, true) +
        stXml(icms.st) +
        desonStXml(icms.desonSt)
      );
    case 'ICMS15':
      return (
        head +
        el('qBCMono', icms.qBCMono) +
        el('adRemICMS', icms.adRemICMS) +
        el('vICMSMono', icms.vICMSMono) +
        el('qBCMonoReten', icms.qBCMonoReten) +
        el('adRemICMSReten', icms.adRemICMSReten) +
        el('vICMSMonoReten', icms.vICMSMonoReten) +
        (icms.reduction ? el('pRedAdRem', icms.reduction.pRedAdRem) + el('motRedAdRem', icms.reduction.motRedAdRem) : '')
      );
    case 'ICMS20':
      return (
        head +
        el('modBC', icms.modBC) +
        el('pRedBC', icms.pRedBC) +
        el('vBC', icms.vBC) +
        el('pICMS', icms.pICMS) +
        el('vICMS', icms.vICMS) +
        fcpXml(icms.fcp, true) +
        desonXml(icms.deson)
      );
    case 'ICMS30':
      return head + stXml(icms.st) + desonXml(icms.deson);
    case 'ICMS40':
      return head + desonXml(icms.deson);
    case 'ICMS51':
      return (
        head +
        el('modBC', icms.modBC) +
        opt('pRedBC', icms.pRedBC) +
        el('vBC', icms.vBC) +
        el('pICMS', icms.pICMS) +
        el('vICMSOp', icms.vICMSOp) +
        el('pDif', icms.pDif) +
        el('vICMSDif', icms.vICMSDif) +
        el('vICMS', icms.vICMS) +
        fcpXml(icms.fcp, true)
      );
    case 'ICMS53':
      return (
        head +
        el('qBCMono', icms.qBCMono) +
        el('adRemICMS', icms.adRemICMS) +
        el('vICMSMonoOp', icms.vICMSMonoOp) +
        el('pDif', icms.pDif) +
        el('vICMSMonoDif', icms.vICMSMonoDif) +
        el('vICMSMono', icms.vICMSMono)
      );
    case 'ICMS60':
    case 'ICMSSN500':
      return head + retainedXml(icms.retained) + fcpStRetainedXml(icms.fcpStRetained) + effectiveXml(icms.effective);
    case 'ICMS61':
      return head + el('qBCMonoRet', icms.qBCMonoRet) + el('adRemICMSRet', icms.adRemICMSRet) + el('vICMSMonoRet', icms.vICMSMonoRet);
    case 'ICMS70':
      return (
        head +
        el('modBC', icms.modBC) +
        el('pRedBC', icms.pRedBC) +
        el('vBC', icms.vBC) +
        el('pICMS', icms.pICMS) +
        el('vICMS', icms.vICMS) +
        fcpXml(icms.fcp, true) +
        stXml(icms.st) +
        desonXml(icms.deson) +
        desonStXml(icms.desonSt)
      );
    case 'ICMS90':
      return (
        head +
        (icms.own ? ownXml(icms.own) + fcpXml(icms.own.fcp, true) : '') +
        (icms.st ? stXml(icms.st) : '') +
        desonXml(icms.deson) +
        desonStXml(icms.desonSt)
      );
    case 'ICMSPart':
      return (
        head +
        el('modBC', icms.modBC) +
        el('vBC', icms.vBC) +
        opt('pRedBC', icms.pRedBC) +
        el('pICMS', icms.pICMS) +
        el('vICMS', icms.vICMS) +
        stXml(icms.st) +
        el('pBCOp', icms.pBCOp) +
        el('UFST', icms.UFST)
      );
    case 'ICMSST':
      return (
        head +
        retainedXml(icms.retained) +
        fcpStRetainedXml(icms.fcpStRetained) +
        el('vBCSTDest', icms.vBCSTDest) +
        el('vICMSSTDest', icms.vICMSSTDest) +
        effectiveXml(icms.effective)
      );
    case 'ICMSSN101':
      return head + el('pCredSN', icms.pCredSN) + el('vCredICMSSN', icms.vCredICMSSN);
    case 'ICMSSN102':
      return head;
    case 'ICMSSN201':
      return head + stXml(icms.st) + el('pCredSN', icms.pCredSN) + el('vCredICMSSN', icms.vCredICMSSN);
    case 'ICMSSN202':
      return head + stXml(icms.st);
    case 'ICMSSN900':
      return (
        head +
        (icms.own ? ownXml(icms.own) : '') +
        (icms.st ? stXml(icms.st) : '') +
        (icms.credit ? el('pCredSN', icms.credit.pCredSN) + el('vCredICMSSN', icms.credit.vCredICMSSN) : '')
      );
    default:
      throw new XmlBuildError(`ICMS: unknown group ${JSON.stringify((icms as { group: unknown }).group)}`);
  }
}

export function icmsXml(icms: NfeIcms): string {
  return element('ICMS', element(icms.group, groupBody(icms)));
}
