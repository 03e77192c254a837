import { createTestCertificate, signNfseWithXmlCrypto, verifyWithXmlCrypto } from '../testing/test-signer.js';
import { NFSE_SCHEMAS, readSample } from '../testing/shared-fiscal.js';
import { xmllintErrors } from '../testing/xmllint-check.js';
import { buildNfseCancellationRequest } from './cancellation-request.js';

const accessKey = '14001591201761135000132000000000000022096100197260';
const input = {
  environment: 'homologation' as const,
  applicationVersion: 'Talao 0.1.0',
  author: { cnpj: '01761135000132' },
  accessKey,
  eventAt: new Date('2026-03-10T15:04:05Z'),
  utcOffset: '-03:00',
  reason: '1' as const,
  justification: 'Erro na descricao do servico',
};

describe('NFS-e cancellation request (pedRegEvento v1.01, e101101)', () => {
  const schema = `${NFSE_SCHEMAS}pedRegEvento_v1.01.xsd`;

  it('uses Id PRE + key(50) + 101101, validates unsigned and signed', () => {
    const request = buildNfseCancellationRequest(input);
    expect(request.id).toBe(`PRE${accessKey}101101`);
    expect(request.id).toMatch(/^PRE[0-9]{56}$/);
    expect(xmllintErrors(request.xml, schema)).toBeUndefined();
    const cert = createTestCertificate();
    const signed = signNfseWithXmlCrypto(request.xml, request.id, cert);
    expect(xmllintErrors(signed, schema)).toBeUndefined();
    expect(verifyWithXmlCrypto(signed, cert)).toBe(true);
  });

  it('the schema refuses the old 62-character Id of the negative sample (the checker can fail)', () => {
    expect(xmllintErrors(readSample('nfse/negative/pedRegEvento_cancelamento_OLD_ID_FORMAT_invalid.xml'), schema)).toMatch(/Id/);
  });

  it('refuses invalid inputs', () => {
    expect(() => buildNfseCancellationRequest({ ...input, accessKey: accessKey.slice(1) })).toThrow(/accessKey/);
    expect(() => buildNfseCancellationRequest({ ...input, reason: '3' as never })).toThrow(/reason/);
    expect(() => buildNfseCancellationRequest({ ...input, justification: 'curta' })).toThrow(/justification/);
    expect(() => buildNfseCancellationRequest({ ...input, author: { cpf: '1' } })).toThrow(/author.cpf/);
    expect(() => buildNfseCancellationRequest({ ...input, applicationVersion: 'x'.repeat(21) })).toThrow(/applicationVersion/);
  });
});
