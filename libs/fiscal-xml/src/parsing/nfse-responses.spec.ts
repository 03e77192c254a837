import { readSample } from '../testing/shared-fiscal.js';
import { gzipSync } from 'node:zlib';
import { decodeGzipBase64, encodeGzipBase64 } from './gzip-base64.js';
import {
  parseAdnDistribution,
  parseNfseXml,
  parseSefinDpsResponse,
  parseSefinEventResponse,
  parseSefinNfseResponse,
} from './nfse-responses.js';

const nfseXml = readSample('nfse/NFSe_v1.00_homologacao_2022_nfelib.xml');

describe('NFS-e Nacional answers', () => {
  it('reads the NFS-e XML (real homologation sample)', () => {
    expect(parseNfseXml(nfseXml)).toEqual({
      id: 'NFS14001591201761135000132000000000000022097781063609',
      accessKey: '14001591201761135000132000000000000022097781063609',
      number: '2',
      status: '100',
      processedAt: '2022-09-28T17:07:52-03:00',
      issuerTaxId: '01761135000132',
      issuerName: 'LW SOFTWARES LTDA',
      netValue: '989999961.04',
      dpsId: 'DPS140015920176113500013200900000000000000003',
      environment: '2',
    });
  });

  it('POST /nfse 201: inflates the NFS-e; 400: lists the errors', () => {
    const ok = parseSefinNfseResponse(
      JSON.stringify({
        tipoAmbiente: 2,
        versaoAplicativo: 'SefinNacional_1.0',
        dataHoraProcessamento: '2026-03-10T12:00:00-03:00',
        idDps: 'DPS140015920176113500013200900000000000000003',
        chaveAcesso: '14001591201761135000132000000000000022097781063609',
        nfseXmlGZipB64: encodeGzipBase64(nfseXml),
        alertas: [{ codigo: 'A001', descricao: 'Alerta' }],
      }),
    );
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.nfseXml).toBe(nfseXml);
    expect(ok.alerts).toEqual([{ code: 'A001', description: 'Alerta', complement: undefined }]);
    const failed = parseSefinNfseResponse({
      tipoAmbiente: 2,
      idDPS: 'DPS1',
      erros: [{ codigo: 'E0714', descricao: 'Assinatura inválida', complemento: 'x' }],
    });
    expect(failed).toMatchObject({
      ok: false,
      dpsId: 'DPS1',
      errors: [{ code: 'E0714', description: 'Assinatura inválida', complement: 'x' }],
    });
  });

  it('GET /dps/{id}, events, ADN distribution', () => {
    expect(parseSefinDpsResponse('{"idDps":"DPS1","chaveAcesso":"K"}')).toMatchObject({ dpsId: 'DPS1', accessKey: 'K' });
    expect(parseSefinEventResponse({ eventoXmlGZipB64: encodeGzipBase64('<evento/>') })).toMatchObject({ ok: true, eventXml: '<evento/>' });
    expect(parseSefinEventResponse({ erro: { codigo: 'E1235', descricao: 'Id inválido' } })).toMatchObject({
      ok: false,
      errors: [{ code: 'E1235' }],
    });
    const batch = parseAdnDistribution({
      StatusProcessamento: 'DOCUMENTOS_LOCALIZADOS',
      TipoAmbiente: 'HOMOLOGACAO',
      LoteDFe: [
        { NSU: 7, ChaveAcesso: 'K', TipoDocumento: 'NFSE', ArquivoXml: encodeGzipBase64(nfseXml), DataHoraGeracao: '2026-03-10T12:00:00' },
      ],
      Alertas: [],
      Erros: [],
    });
    expect(batch.documents).toHaveLength(1);
    expect(parseNfseXml(batch.documents[0]?.xml ?? '').number).toBe('2');
  });

  it('refuses malformed answers and decompression bombs', () => {
    expect(() => parseSefinNfseResponse('not json')).toThrow(/JSON/);
    expect(() => parseSefinNfseResponse('{}')).toThrow(/neither/);
    expect(() => parseSefinNfseResponse('x'.repeat(10), 5)).toThrow(/exceeds/);
    const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024)).toString('base64');
    expect(() => decodeGzipBase64(bomb, 1024 * 1024)).toThrow(/gzip/);
    expect(() => decodeGzipBase64('@@@@')).toThrow(/base64/);
    expect(() => parseNfseXml('<DPS></DPS>')).toThrow(/expected <NFSe>/);
  });
});
