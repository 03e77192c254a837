// ide, emit and dest of the NF-e 4.00 (leiauteNFe_v4.00.xsd, PL_010 v1.30), element order as the XSD sequence.
import type { NfeAddress, NfeDest, NfeEmit, NfeIde } from '@talao/fiscal-model';
import { element, textElement as el, XmlBuildError } from '../../writer/canonical-xml.js';
import { nestedFields, sequenceXml, type SequencePart } from '../../writer/layout-sequence.js';

const IDE = [
  ...(['cUF', 'cNF', 'natOp', 'mod', 'serie', 'nNF', 'dhEmi', 'tpNF', 'idDest', 'cMunFG', 'tpImp', 'tpEmis', 'cDV'] as const),
  ...(['tpAmb', 'finNFe', 'indFinal', 'indPres', 'indIntermed?', 'procEmi', 'verProc'] as const),
  nestedFields<NfeIde, 'contingency'>('contingency', ['dhCont', 'xJust']),
] satisfies SequencePart<NfeIde>[];
const ADDRESS = [
  ...(['xLgr', 'nro', 'xCpl?', 'xBairro', 'cMun', 'xMun', 'UF', 'CEP?', 'cPais?', 'xPais?', 'fone?'] as const),
] satisfies SequencePart<NfeAddress>[];

export function ideXml(ide: NfeIde): string {
  if ((ide.tpEmis === '1') !== (ide.contingency === undefined)) {
    throw new XmlBuildError(`ide.contingency: dhCont/xJust are required with tpEmis 6/7 and refused with tpEmis 1 (tpEmis ${ide.tpEmis})`);
  }
  let refs = '';
  for (const key of ide.refNFe ?? []) refs += element('NFref', el('refNFe', key));
  return sequenceXml('ide', ide, IDE) + refs;
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
    sequenceXml('emit', emit, ['xNome', 'xFant?', (e) => element('enderEmit', sequenceXml('enderEmit', e.enderEmit, ADDRESS))]) +
    sequenceXml('emit', emit, ['IE', 'IM?', 'CNAE?', 'CRT'])
  );
}

export function destXml(dest: NfeDest): string {
  return (
    oneTaxId(dest, 'dest') +
    sequenceXml('dest', dest, [
      'xNome',
      (d) => element('enderDest', sequenceXml('enderDest', d.enderDest, ADDRESS)),
      'indIEDest',
      'IE?',
      'email?',
    ])
  );
}
