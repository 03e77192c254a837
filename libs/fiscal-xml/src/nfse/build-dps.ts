// The NFS-e Nacional DPS v1.01 (DPS/infDPS), unsigned and canonical by construction, from fiscal-model's computed
// DpsDocument. Element order as tiposComplexos_v1.01.xsd (TCInfDPS and its types).
import type { DpsAddress, DpsDocument, DpsPerson, DpsProvider, DpsValues } from '@talao/fiscal-model';
import { element, optionalTextElement as opt, textElement as el, XmlBuildError } from '../writer/canonical-xml.js';
import { padDigits } from '../writer/field-rules.js';
import { sequenceXml } from '../writer/layout-sequence.js';
import { NFSE_NAMESPACE } from './cancellation-request.js';

export interface UnsignedDps {
  /** infDPS/@Id, "DPS" + 42 digits, the reference of the signature. */
  readonly id: string;
  readonly xml: string;
}

/** TCInfoPessoa's choice: CNPJ, CPF or (a taker abroad) NIF; the provider has a CNPJ or CPF. */
function oneTaxId(party: { CNPJ?: string; CPF?: string; NIF?: string }, field: string): string {
  const present = [party.CNPJ, party.CPF, party.NIF].filter((v) => v !== undefined).length;
  if (present !== 1) throw new XmlBuildError(`${field}: exactly one of CNPJ, CPF${field === 'toma' ? ', NIF' : ''} is required`);
  if (party.NIF !== undefined && field !== 'toma') throw new XmlBuildError(`${field}: the provider has a CNPJ or CPF`);
  if (party.CNPJ !== undefined) return el('CNPJ', party.CNPJ);
  return party.CPF !== undefined ? el('CPF', party.CPF) : el('NIF', party.NIF as string);
}

/**
 * Id = "DPS" + cLocEmi(7) + registration type (1 CPF, 2 CNPJ) + CPF/CNPJ (14, CPF zero-padded) + serie(5) + nDPS(15),
 * 45 characters (TSIdDPS: DPS[0-9]{42}). Sefin rejects a DPS whose Id disagrees with its fields.
 */
export function dpsId(doc: Pick<DpsDocument, 'cLocEmi' | 'prest' | 'serie' | 'nDPS'>): string {
  const cnpj = doc.prest.CNPJ;
  const inscription = cnpj !== undefined ? `2${padDigits(cnpj, 14, 'prest.CNPJ')}` : `1${padDigits(doc.prest.CPF ?? '', 14, 'prest.CPF')}`;
  return `DPS${padDigits(doc.cLocEmi, 7, 'cLocEmi')}${inscription}${padDigits(doc.serie, 5, 'serie')}${padDigits(doc.nDPS, 15, 'nDPS')}`;
}

function addressXml(address: DpsAddress): string {
  let location: string;
  if (address.endNac && !address.endExt) location = element('endNac', el('cMun', address.endNac.cMun) + el('CEP', address.endNac.CEP));
  else if (address.endExt && !address.endNac) {
    const ext = address.endExt;
    location = element(
      'endExt',
      el('cPais', ext.cPais) + el('cEndPost', ext.cEndPost) + el('xCidade', ext.xCidade) + el('xEstProvReg', ext.xEstProvReg),
    );
  } else throw new XmlBuildError('end: exactly one of endNac, endExt is required');
  return element(
    'end',
    location + el('xLgr', address.xLgr) + el('nro', address.nro) + opt('xCpl', address.xCpl) + el('xBairro', address.xBairro),
  );
}

function providerXml(prest: DpsProvider): string {
  const reg = prest.regTrib;
  if ((reg.regApTribSN !== undefined) !== (reg.opSimpNac === '3'))
    throw new XmlBuildError('prest.regTrib.regApTribSN: present exactly when opSimpNac is 3');
  return element(
    'prest',
    oneTaxId(prest, 'prest') +
      opt('IM', prest.IM) +
      opt('fone', prest.fone) +
      opt('email', prest.email) +
      element('regTrib', el('opSimpNac', reg.opSimpNac) + opt('regApTribSN', reg.regApTribSN) + el('regEspTrib', reg.regEspTrib)),
  );
}

function takerXml(toma: DpsPerson | undefined): string {
  if (!toma) return '';
  return element(
    'toma',
    oneTaxId(toma, 'toma') +
      el('xNome', toma.xNome) +
      (toma.end ? addressXml(toma.end) : '') +
      opt('fone', toma.fone) +
      opt('email', toma.email),
  );
}

function valuesXml(values: DpsValues): string {
  const discount = values.vDescCondIncond ? element('vDescCondIncond', el('vDescIncond', values.vDescCondIncond.vDescIncond)) : '';
  const tot = values.trib.totTrib;
  const totTrib =
    'indTotTrib' in tot
      ? el('indTotTrib', tot.indTotTrib)
      : 'pTotTrib' in tot
        ? element(
            'pTotTrib',
            el('pTotTribFed', tot.pTotTrib.pTotTribFed) +
              el('pTotTribEst', tot.pTotTrib.pTotTribEst) +
              el('pTotTribMun', tot.pTotTrib.pTotTribMun),
          )
        : el('pTotTribSN', tot.pTotTribSN);
  const trib =
    element('tribMun', el('tribISSQN', values.trib.tribMun.tribISSQN) + el('tpRetISSQN', values.trib.tribMun.tpRetISSQN)) +
    element('totTrib', totTrib);
  return element('valores', element('vServPrest', el('vServ', values.vServPrest.vServ)) + discount + element('trib', trib));
}

export function buildDps(doc: DpsDocument): UnsignedDps {
  const id = dpsId(doc);
  if (doc.id !== id) throw new XmlBuildError(`id: ${JSON.stringify(doc.id)} disagrees with cLocEmi/prest/serie/nDPS (${id})`);
  const serv = doc.serv;
  const servXml = element(
    'serv',
    element('locPrest', el('cLocPrestacao', serv.locPrest.cLocPrestacao)) +
      element('cServ', el('cTribNac', serv.cServ.cTribNac) + el('xDescServ', serv.cServ.xDescServ)) +
      (serv.infoCompl ? element('infoCompl', el('xInfComp', serv.infoCompl.xInfComp)) : ''),
  );
  const ibsCbs = doc.IBSCBS
    ? element(
        'IBSCBS',
        el('finNFSe', doc.IBSCBS.finNFSe) +
          el('indFinal', doc.IBSCBS.indFinal) +
          el('cIndOp', doc.IBSCBS.cIndOp) +
          el('indDest', doc.IBSCBS.indDest) +
          element(
            'valores',
            element(
              'trib',
              element(
                'gIBSCBS',
                el('CST', doc.IBSCBS.valores.trib.gIBSCBS.CST) + el('cClassTrib', doc.IBSCBS.valores.trib.gIBSCBS.cClassTrib),
              ),
            ),
          ),
      )
    : '';
  const info = sequenceXml('infDPS', doc, [
    ...(['tpAmb', 'dhEmi', 'verAplic', 'serie', 'nDPS', 'dCompet', 'tpEmit', 'cLocEmi'] as const),
    (d) => providerXml(d.prest) + takerXml(d.toma) + servXml + valuesXml(d.valores) + ibsCbs,
  ]);
  const xml = element('DPS', element('infDPS', info, { Id: id }), { xmlns: NFSE_NAMESPACE, versao: '1.01' });
  return { id, xml };
}
