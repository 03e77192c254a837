// Reconciliation reads: one table of NF-e codes decides what a consult's answer means (found / absent / inconclusive).
import type { RetConsSitNFe } from '@talao/fiscal-xml';
import type { AuthorizerOutcome } from '../outcome.js';
import { readDpsRecord } from '../nfse/nfse-nacional-client.js';
import { alreadyHeld, issuedInContingency, readNfeRecord } from './nfe-record.js';
import { AUTHORIZED_CODES, DENIED_CODES, nfeRecordState } from './sefaz-classification.js';

const KEY = '35260711222333000181550010000001001123456780';
const answered = (status: number) => [
  {
    request: { method: 'GET', url: 'u', headers: {}, body: '' },
    response: { status, headers: {}, body: '{}' },
    timing: { startedAt: 't', totalMs: 1 },
  },
];

function consult(code: string, protocol?: { code: string; number?: string; rawXml?: string }): AuthorizerOutcome<RetConsSitNFe> {
  const result = {
    environment: '2',
    applicationVersion: 'SIM',
    status: { code, message: `cStat ${code}` },
    accessKey: KEY,
    events: [],
    ...(protocol
      ? {
          protocol: {
            status: { code: protocol.code, message: `prot ${protocol.code}` },
            protocolNumber: protocol.number,
            rawXml: protocol.rawXml,
          },
        }
      : {}),
  } as unknown as RetConsSitNFe;
  return { status: 'accepted', code, message: `cStat ${code}`, result, exchanges: [] };
}

describe('NF-e record states', () => {
  it('one table: authorized 100/150, denied 110/301–303, cancelled 101/151/155; nothing else is a state', () => {
    expect([...AUTHORIZED_CODES].sort()).toEqual(['100', '150']);
    expect([...DENIED_CODES].sort()).toEqual(['110', '301', '302', '303']);
    expect(['101', '151', '155'].map(nfeRecordState)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(['217', '204', '539', '107'].map(nfeRecordState)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a consult that found the NF-e reads its protocol (code, number, protNFe byte for byte)', () => {
    expect(readNfeRecord(consult('100', { code: '100', number: '135000000000001', rawXml: '<protNFe/>' }))).toEqual({
      kind: 'found',
      state: 'authorized',
      code: '100',
      message: 'prot 100',
      protocol: '135000000000001',
      protocolXml: '<protNFe/>',
    });
    expect(readNfeRecord(consult('110', { code: '110', number: '135000000000002' }))).toMatchObject({
      kind: 'found',
      state: 'denied',
      protocol: '135000000000002',
    });
    expect(readNfeRecord(consult('101'))).toMatchObject({ kind: 'found', state: 'cancelled', code: '101', protocol: null });
  });

  it('217 is "not on record"; a refusal, an outage or a lost answer cannot tell', () => {
    expect(readNfeRecord({ status: 'rejected', code: '217', message: 'NF-e nao consta', exchanges: [] })).toEqual({ kind: 'absent' });
    expect(readNfeRecord({ status: 'rejected', code: '226', message: 'UF diverge', exchanges: [] })).toEqual({
      kind: 'inconclusive',
      detail: 'rejected 226 UF diverge',
    });
    expect(readNfeRecord({ status: 'unknown', reason: 'read-timeout', detail: 'no answer', exchanges: [] })).toEqual({
      kind: 'inconclusive',
      detail: 'unknown (read-timeout): no answer',
    });
    expect(readNfeRecord(consult('999'))).toEqual({ kind: 'inconclusive', detail: 'consult answered 999 cStat 999' });
  });

  it('204 on an authorization means the key is already held; tpEmis 6/7 in the key means SVC', () => {
    expect(alreadyHeld({ status: 'rejected', code: '204', message: 'Duplicidade', exchanges: [] })).toBe(true);
    expect(alreadyHeld({ status: 'rejected', code: '539', message: 'Duplicidade com diferenca na chave', exchanges: [] })).toBe(false);
    expect([KEY, `${KEY.slice(0, 34)}6${KEY.slice(35)}`, `${KEY.slice(0, 34)}7${KEY.slice(35)}`].map(issuedInContingency)).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe('DPS records', () => {
  it('found with its NFS-e key; 404 is "no NFS-e"; anything else cannot tell', () => {
    const key = '3'.repeat(50);
    expect(
      readDpsRecord({
        status: 'accepted',
        code: '200',
        message: 'DPS localizada',
        result: { dpsId: 'DPS1', accessKey: key },
        exchanges: answered(200),
      }),
    ).toEqual({
      kind: 'found',
      accessKey: key,
      code: '200',
      message: 'DPS localizada',
    });
    expect(readDpsRecord({ status: 'accepted', code: '200', message: 'ok', result: { dpsId: 'DPS1' }, exchanges: answered(200) })).toEqual({
      kind: 'inconclusive',
      detail: 'DPS DPS1 found without its NFS-e key',
    });
    expect(readDpsRecord({ status: 'rejected', code: '404', message: 'HTTP 404', exchanges: answered(404) })).toEqual({ kind: 'absent' });
    expect(readDpsRecord({ status: 'rejected', code: 'E0001', message: 'x', exchanges: answered(400) }).kind).toBe('inconclusive');
    expect(readDpsRecord({ status: 'unavailable', reason: 'http-error', detail: 'HTTP 503', exchanges: answered(503) }).kind).toBe(
      'inconclusive',
    );
  });
});
