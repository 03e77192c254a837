// imposto/ICMS: the 21 groups of layout 4.00 (+ NT 2023.001 monophasic groups), each in its XSD sequence.
import type { Deson, DesonSt, Effective, Fcp, FcpStRetained, IcmsSt, NfeIcms, StRetained } from '@talao/fiscal-model';
import { element, XmlBuildError } from '../../writer/canonical-xml.js';
import { nestedFields, sequenceXml, type SequencePart } from '../../writer/layout-sequence.js';

type Group<G extends NfeIcms['group']> = Extract<NfeIcms, { group: G }>;
/** Every group's fields, checked against its own model type: a misspelt or misplaced name does not compile. */
type GroupSequences = { readonly [G in NfeIcms['group']]: readonly SequencePart<Group<G>>[] };
// The sub-groups several groups share: each typed by the one field it reads, so it fits every group that has it.
const FCP = nestedFields<{ fcp?: Fcp }, 'fcp'>('fcp', ['pFCP', 'vFCP']);
const FCP_WITH_BASE = nestedFields<{ fcp?: Fcp }, 'fcp'>('fcp', ['vBCFCP', 'pFCP', 'vFCP']);
const ST = nestedFields<{ st?: IcmsSt }, 'st'>('st', [
  'modBCST',
  'pMVAST?',
  'pRedBCST?',
  'vBCST',
  'pICMSST',
  'vICMSST',
  nestedFields<IcmsSt, 'fcpSt'>('fcpSt', ['vBCFCPST', 'pFCPST', 'vFCPST']),
]);
const DESON = nestedFields<{ deson?: Deson }, 'deson'>('deson', ['vICMSDeson', 'motDesICMS', 'indDeduzDeson?']);
const DESON_ST = nestedFields<{ desonSt?: DesonSt }, 'desonSt'>('desonSt', ['vICMSSTDeson', 'motDesICMSST']);
const RETAINED = nestedFields<{ retained?: StRetained }, 'retained'>('retained', ['vBCSTRet', 'pST?', 'vICMSSubstituto?', 'vICMSSTRet']);
const FCP_ST_RETAINED = nestedFields<{ fcpStRetained?: FcpStRetained }, 'fcpStRetained'>('fcpStRetained', [
  'vBCFCPSTRet',
  'pFCPSTRet',
  'vFCPSTRet',
]);
const EFFECTIVE = nestedFields<{ effective?: Effective }, 'effective'>('effective', ['pRedBCEfet', 'vBCEfet', 'pICMSEfet', 'vICMSEfet']);
const OWN = ['modBC', 'vBC', 'pRedBC?', 'pICMS', 'vICMS'] as const;
const SIMPLES_CREDIT = ['pCredSN', 'vCredICMSSN'] as const;
const RETAINED_GROUP = [RETAINED, FCP_ST_RETAINED, EFFECTIVE];

const SEQUENCES: GroupSequences = {
  ICMS00: ['modBC', 'vBC', 'pICMS', 'vICMS', FCP],
  ICMS02: ['qBCMono', 'adRemICMS', 'vICMSMono'],
  ICMS10: ['modBC', 'vBC', 'pICMS', 'vICMS', FCP_WITH_BASE, ST, DESON_ST],
  ICMS15: [
    'qBCMono',
    'adRemICMS',
    'vICMSMono',
    'qBCMonoReten',
    'adRemICMSReten',
    'vICMSMonoReten',
    nestedFields('reduction', ['pRedAdRem', 'motRedAdRem']),
  ],
  ICMS20: ['modBC', 'pRedBC', 'vBC', 'pICMS', 'vICMS', FCP_WITH_BASE, DESON],
  ICMS30: [ST, DESON],
  ICMS40: [DESON],
  ICMS51: ['modBC', 'pRedBC?', 'vBC', 'pICMS', 'vICMSOp', 'pDif', 'vICMSDif', 'vICMS', FCP_WITH_BASE],
  ICMS53: ['qBCMono', 'adRemICMS', 'vICMSMonoOp', 'pDif', 'vICMSMonoDif', 'vICMSMono'],
  ICMS60: RETAINED_GROUP,
  ICMS61: ['qBCMonoRet', 'adRemICMSRet', 'vICMSMonoRet'],
  ICMS70: ['modBC', 'pRedBC', 'vBC', 'pICMS', 'vICMS', FCP_WITH_BASE, ST, DESON, DESON_ST],
  ICMS90: [nestedFields('own', [...OWN, FCP_WITH_BASE]), ST, DESON, DESON_ST],
  ICMSPart: ['modBC', 'vBC', 'pRedBC?', 'pICMS', 'vICMS', ST, 'pBCOp', 'UFST'],
  ICMSST: [RETAINED, FCP_ST_RETAINED, 'vBCSTDest', 'vICMSSTDest', EFFECTIVE],
  ICMSSN101: SIMPLES_CREDIT,
  ICMSSN102: [],
  ICMSSN201: [ST, ...SIMPLES_CREDIT],
  ICMSSN202: [ST],
  ICMSSN500: RETAINED_GROUP,
  ICMSSN900: [nestedFields('own', OWN), ST, nestedFields('credit', SIMPLES_CREDIT)],
};

export function icmsXml(icms: NfeIcms): string {
  const sequence = SEQUENCES[icms.group] as readonly SequencePart<NfeIcms>[] | undefined;
  if (!sequence) throw new XmlBuildError(`ICMS: unknown group ${JSON.stringify((icms as { group: unknown }).group)}`);
  // orig, then the tax situation: CST for the normal regime, CSOSN for Simples Nacional.
  const body = sequenceXml(`ICMS.${icms.group}`, icms, ['orig', 'CST?', 'CSOSN?', ...sequence] as SequencePart<NfeIcms>[]);
  return element('ICMS', element(icms.group, body));
}
