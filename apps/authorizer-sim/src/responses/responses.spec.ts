// Every answer variant the simulator sends, against the official response schemas (a failure here would be a
// response the real clients could refuse).
import { validateXml } from '@talao/fiscal-xml';
import { cstatMessage } from './cstat.js';
import { procEventoNFe, resEvento, resNFe, retDistDFeInt, retEnvEvento, retEvento, retInutNFe } from './event-responses.js';
import { protNFe, retConsSitNFe, retConsStatServ, retEnviNFe } from './nfe-responses.js';

const KEY = '35260711222333000181550010000001001123456780';
const NOW = '2026-07-31T10:15:00-03:00';
const header = (cStat: string) => ({ tpAmb: '2' as const, cStat, xMotivo: cstatMessage(cStat), cUF: '35', dhRecbto: NOW });
const authorized = protNFe({
  tpAmb: '2',
  chNFe: KEY,
  dhRecbto: NOW,
  nProt: '235260000000001',
  digVal: 'aWpBMlDjIlWUn2ALNSdwzLi2ntE=',
  cStat: '100',
  xMotivo: cstatMessage('100'),
});
const rejected = protNFe({
  tpAmb: '2',
  chNFe: KEY,
  dhRecbto: NOW,
  cStat: '539',
  xMotivo: cstatMessage('539', { chNFe: KEY, nRec: '235260000000001' }),
});

describe('simulator answers are valid against the official schemas', () => {
  it.each([
    ['lot rejected (225)', retEnviNFe(header('225'))],
    ['authorized (104 + 100)', retEnviNFe(header('104'), { protNFe: authorized })],
    ['NF-e rejected (104 + 539)', retEnviNFe(header('104'), { protNFe: rejected })],
    ['asynchronous (103 + receipt)', retEnviNFe(header('103'), { nRec: '350000000000001', tMed: 1 })],
  ])('retEnviNFe: %s', (_name, xml) => expect(validateXml('retEnviNFe', xml)).toEqual({ valid: true }));

  it('retConsStatServ', () => {
    expect(validateXml('retConsStatServ', retConsStatServ(header('107'), 1))).toEqual({ valid: true });
    expect(validateXml('retConsStatServ', retConsStatServ(header('108')))).toEqual({ valid: true });
  });

  it('retConsSitNFe, unknown and authorized', () => {
    expect(validateXml('retConsSitNFe', retConsSitNFe({ ...header('217'), chNFe: KEY }))).toEqual({ valid: true });
    expect(validateXml('retConsSitNFe', retConsSitNFe({ ...header('100'), chNFe: KEY }, authorized))).toEqual({ valid: true });
  });

  it('retEnvEvento with a rejected and a registered event', () => {
    const refused = retEvento({
      tpAmb: '2',
      cOrgao: '35',
      cStat: '573',
      xMotivo: cstatMessage('573'),
      chNFe: KEY,
      tpEvento: '110111',
      nSeqEvento: 1,
      dhRegEvento: NOW,
    });
    const registered = retEvento({
      tpAmb: '2',
      cOrgao: '35',
      cStat: '135',
      xMotivo: cstatMessage('135'),
      chNFe: KEY,
      tpEvento: '110110',
      xEvento: 'Carta de Correção registrada',
      nSeqEvento: 2,
      dhRegEvento: NOW,
      nProt: '235260000000002',
    });
    const lot = retEnvEvento({ idLote: '1', tpAmb: '2', cOrgao: '35', cStat: '128', xMotivo: cstatMessage('128') }, [refused, registered]);
    expect(validateXml('retEnvEvento', lot)).toEqual({ valid: true });
    expect(
      validateXml('retEnvEvento', retEnvEvento({ idLote: '1', tpAmb: '2', cOrgao: '91', cStat: '215', xMotivo: cstatMessage('215') })),
    ).toEqual({ valid: true });
  });

  it('retInutNFe, voided and refused', () => {
    const range = { ano: '26', CNPJ: '11222333000181', mod: '55', serie: 1, nNFIni: 10, nNFFin: 20 };
    expect(validateXml('retInutNFe', retInutNFe({ ...header('102'), range, nProt: '235260000000003' }))).toEqual({ valid: true });
    expect(validateXml('retInutNFe', retInutNFe(header('241')))).toEqual({ valid: true });
  });

  it('retDistDFeInt, resNFe and resEvento', () => {
    const summary = resNFe({
      chNFe: KEY,
      issuerTaxId: '11222333000181',
      xNome: 'EMPRESA',
      IE: '123456789012',
      dhEmi: NOW,
      vNF: '10.00',
      dhRecbto: NOW,
      nProt: '235260000000001',
      cancelled: false,
    });
    const event = resEvento({
      cOrgao: '35',
      authorTaxId: '11222333000181',
      chNFe: KEY,
      dhEvento: NOW,
      tpEvento: '110111',
      nSeqEvento: 1,
      xEvento: 'Cancelamento registrado',
      dhRecbto: NOW,
      nProt: '235260000000004',
    });
    expect(validateXml('resNFe', summary)).toEqual({ valid: true });
    expect(validateXml('resEvento', event)).toEqual({ valid: true });
    const head = { tpAmb: '2' as const, xMotivo: 'x', dhResp: NOW, ultNSU: '000000000000002', maxNSU: '000000000000002' };
    const docs = [
      { nsu: '000000000000001', schema: 'resNFe_v1.01.xsd', xml: summary },
      { nsu: '000000000000002', schema: 'resEvento_v1.01.xsd', xml: event },
    ];
    expect(validateXml('retDistDFeInt', retDistDFeInt({ ...head, cStat: '138' }, docs))).toEqual({ valid: true });
    expect(validateXml('retDistDFeInt', retDistDFeInt({ ...head, cStat: '137' }))).toEqual({ valid: true });
  });

  it('fills the placeholders of the official texts', () => {
    expect(cstatMessage('539', { chNFe: KEY, nRec: '1' })).toBe(
      `Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: ${KEY}][nRec:1]`,
    );
    expect(cstatMessage('204')).toBe('Duplicidade de NF-e');
    expect(() => cstatMessage('000')).toThrow();
    expect(procEventoNFe('<evento/>', '<retEvento/>')).toContain(
      '<procEventoNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.00">',
    );
  });
});
