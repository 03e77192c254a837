// ide, emit and dest of the NF-e 4.00 (leiauteNFe_v4.00.xsd, PL_010 v1.30), element order as the XSD sequence.
import type { NfeAddress, NfeDest, NfeEmit, NfeIde } from '@talao/fiscal-model';
import { element, optionalTextElement as opt, textElement as el, XmlBuildError } from '../../writer/canonical-xml.js';

export function ideXml(ide: NfeIde): string {
  if ((ide.tpEmis === '1') !== (ide.contingency === undefined)) {
    throw new XmlBuildError(`ide.contingency: dhCont/xJust are required with tpEmis 6/7 and refused with tpEmis 1 (tpEmis ${ide.tpEmis})`);
  }
  let refs = '';
  for (const key of ide.refNFe ?? []) refs += element('NFref', el('refNFe', key));
  return (
    el('cUF', ide.cUF) +
    el('cNF', ide.cNF) +
    el('natOp', ide.natOp) +
    el('mod', ide.mod) +
    el('serie', ide.serie) +
    el('nNF', ide.nNF) +
    el('dhEmi', ide.dhEmi) +
    el('tpNF', ide.tpNF) +
    el('idDest', ide.idDest) +
    el('cMunFG', ide.cMunFG) +
    el('tpImp', ide.tpImp) +
    el('tpEmis', ide.tpEmis) +
    el('cDV', ide.cDV) +
    el('tpAmb', ide.tpAmb) +
    el('finNFe', ide.finNFe) +
    el('indFinal', ide.indFinal) +
    el('indPres', ide.indPres) +
    opt('indIntermed', ide.indIntermed) +
    el('procEmi', ide.procEmi) +
    el('verProc', ide.verProc) +
    (ide.contingency ? el('dhCont', ide.contingency.dhCont) + el('xJust', ide.contingency.xJust) : '') +
    refs
  );
}

function addressXml(address: NfeAddress): string {
  return (
    el('xLgr', address.xLgr) +
    el('nro', address.nro) +
    opt('xCpl', address.xCpl) +
    el('xBairro', address.xBairro) +
    el('cMun', address.cMun) +
    el('xMun', address.xMun) +
    el('UF', address.UF) +
    opt('CEP', address.CEP) +
    opt('cPais', address.cPais) +
    opt('xPais', address.xPais) +
    opt('fone', address.fone)
  );
}

function oneTaxId(party: { CNPJ?: string; CPF?: string; idEstrangeiro?: string }, field: string): string {
  const present = [party.CNPJ, party.CPF, party.idEstrangeiro].filter((v) => v !== undefined).length;
  if (present !== 1) throw new XmlBuildError(`${field}: exactly one of CNPJ, CPF${field === 'dest' ? ', idEstrangeiro' : ''} is required`);
  if (party.CNPJ !== undefined) return el('CNPJ', party.CNPJ);
  if (party.CPF !== undefined) return el('CPF', party.CPF);
  return el('idEstrangeiro', party.idEstrangeiro as string);
}

export function emitXml(emit: NfeEmit): string {
  if (emit.CNAE !== undefined && emit.IM === undefined) throw new XmlBuildError('emit.CNAE: only allowed with emit.IM');
  if ('idEstrangeiro' in emit) throw new XmlBuildError('emit: the issuer has a CNPJ or CPF');
  return (
    oneTaxId(emit, 'emit') +
    el('xNome', emit.xNome) +
    opt('xFant', emit.xFant) +
    element('enderEmit', addressXml(emit.enderEmit)) +
    el('IE', emit.IE) +
    opt('IM', emit.IM) +
    opt('CNAE', emit.CNAE) +
    el('CRT', emit.CRT)
  );
}

export function destXml(dest: NfeDest): string {
  return (
    oneTaxId(dest, 'dest') +
    el('xNome', dest.xNome) +
    element('enderDest', addressXml(dest.enderDest)) +
    el('indIEDest', dest.indIEDest) +
    opt('IE', dest.IE) +
    opt('email', dest.email)
  );
}
