import { gzipSync } from 'node:zlib';
import { gunzipBase64, gzipBase64, readNfseErrors } from './nfse-payloads.js';

describe('NFS-e Nacional payloads', () => {
  it('round-trips gzip+base64 byte for byte', () => {
    const xml = '<DPS xmlns="http://www.sped.fazenda.gov.br/nfse">ação</DPS>';
    expect(gunzipBase64(gzipBase64(xml))).toBe(xml);
  });

  it('refuses a gzip bomb', () => {
    const bomb = gzipSync(Buffer.alloc(6 * 1024 * 1024)).toString('base64');
    expect(() => gunzipBase64(bomb)).toThrow();
  });

  it('reads errors in the three shapes of the specs', () => {
    expect(readNfseErrors({ erros: [{ codigo: 'E0014', descricao: 'DPS duplicada' }] })).toEqual([{ code: 'E0014', description: 'DPS duplicada' }]);
    expect(readNfseErrors({ erro: { codigo: 'E404', descricao: 'NFS-e não encontrada', complemento: 'x' } })).toEqual([
      { code: 'E404', description: 'NFS-e não encontrada', complement: 'x' },
    ]);
    expect(readNfseErrors({ Erros: [{ Codigo: 'E2220', Descricao: 'NSU inválido' }] })).toEqual([{ code: 'E2220', description: 'NSU inválido' }]);
    expect(readNfseErrors({})).toEqual([]);
  });
});
