import { createTestCertificate, signWithXmlCrypto, verifyWithXmlCrypto } from '../../testing/test-signer.js';
import { homologationEventCommon } from '../../testing/nfe-event-common.js';
import { OFFICIAL_NFE_SCHEMAS } from '../../testing/shared-fiscal.js';
import { xmllintErrors } from '../../testing/xmllint-check.js';
import { XmlBuildError } from '../../writer/canonical-xml.js';
import { buildEnvEvento } from './event-message.js';
import {
  buildCancellationEvent,
  buildCorrectionLetterEvent,
  buildManifestationEvent,
  CORRECTION_LETTER_CONDITIONS_OF_USE,
} from './nfe-events.js';

const cert = createTestCertificate();
const key = '35220605730928000145550010000048661583302921';
const common = homologationEventCommon(key, '05730928000145', new Date('2026-03-10T15:04:05Z'));

function lotOf(unsigned: { id: string; xml: string }): string {
  return buildEnvEvento({ lotId: '123', signedEvents: [signWithXmlCrypto(unsigned.xml, unsigned.id, cert)] });
}

describe('NF-e events', () => {
  it('builds a cancellation (110111) that is canonical, signs and validates against envEventoCancNFe', () => {
    const event = buildCancellationEvent({
      ...common,
      protocol: '135220000012345',
      justification: 'Pedido cancelado pelo cliente & outros',
    });
    expect(event.id).toBe(`ID110111${key}01`);
    expect(event.xml).toBe(
      `<evento xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.00"><infEvento Id="${event.id}"><cOrgao>35</cOrgao><tpAmb>2</tpAmb>` +
        `<CNPJ>05730928000145</CNPJ><chNFe>${key}</chNFe><dhEvento>2026-03-10T12:04:05-03:00</dhEvento><tpEvento>110111</tpEvento>` +
        '<nSeqEvento>1</nSeqEvento><verEvento>1.00</verEvento><detEvento versao="1.00"><descEvento>Cancelamento</descEvento>' +
        '<nProt>135220000012345</nProt><xJust>Pedido cancelado pelo cliente &amp; outros</xJust></detEvento></infEvento></evento>',
    );
    const lot = lotOf(event);
    expect(xmllintErrors(lot, `${OFFICIAL_NFE_SCHEMAS}nfe_evento_cancel/envEventoCancNFe_v1.00.xsd`)).toBeUndefined();
    expect(verifyWithXmlCrypto(lot, cert)).toBe(true);
  });

  it('builds a CC-e (110110) with the legal conditions of use and sequences 1–20', () => {
    for (const sequence of [1, 9, 10, 20]) {
      const event = buildCorrectionLetterEvent({ ...common, sequence, correction: 'Corrigir o endereço de entrega: Rua A, 10' });
      expect(event.id).toBe(`ID110110${key}${String(sequence).padStart(2, '0')}`);
      expect(event.xml).toContain(`<xCondUso>${CORRECTION_LETTER_CONDITIONS_OF_USE}</xCondUso>`);
      expect(xmllintErrors(lotOf(event), `${OFFICIAL_NFE_SCHEMAS}nfe_evento_cce/envCCe_v1.00.xsd`)).toBeUndefined();
    }
    expect(() => buildCorrectionLetterEvent({ ...common, sequence: 21, correction: 'Corrigir o endereço de entrega' })).toThrow(
      XmlBuildError,
    );
    expect(() => buildCorrectionLetterEvent({ ...common, sequence: 0, correction: 'Corrigir o endereço de entrega' })).toThrow(/sequence/);
    expect(() => buildCorrectionLetterEvent({ ...common, sequence: 1, correction: 'curta' })).toThrow(/correction/);
  });

  it('builds the four manifestations at the national environment (cOrgao 91)', () => {
    const recipient = { ...common, author: { cpf: '12345678909' } };
    for (const type of ['210200', '210210', '210220'] as const) {
      const event = buildManifestationEvent({ ...recipient, type });
      expect(event.xml).toContain('<cOrgao>91</cOrgao><tpAmb>2</tpAmb><CPF>12345678909</CPF>');
      expect(xmllintErrors(lotOf(event), `${OFFICIAL_NFE_SCHEMAS}nfe_evento_mde/envConfRecebto_v1.00.xsd`)).toBeUndefined();
    }
    const refused = buildManifestationEvent({ ...recipient, type: '210240', justification: 'Mercadoria nunca foi encomendada' });
    expect(refused.xml).toContain('<descEvento>Operacao nao Realizada</descEvento><xJust>Mercadoria nunca foi encomendada</xJust>');
    expect(xmllintErrors(lotOf(refused), `${OFFICIAL_NFE_SCHEMAS}nfe_evento_mde/envConfRecebto_v1.00.xsd`)).toBeUndefined();
    expect(() => buildManifestationEvent({ ...recipient, type: '210240' })).toThrow(/justification/);
    expect(() => buildManifestationEvent({ ...recipient, type: '210200', justification: 'nao se aplica aqui mesmo' })).toThrow(
      /only 210240/,
    );
  });

  it('refuses invalid inputs', () => {
    const cancel = { ...common, protocol: '135220000012345', justification: 'Pedido cancelado pelo cliente' };
    expect(() => buildCancellationEvent({ ...cancel, protocol: '123' })).toThrow(/protocol/);
    expect(() => buildCancellationEvent({ ...cancel, justification: 'curta' })).toThrow(/justification/);
    expect(() => buildCancellationEvent({ ...cancel, justification: ' começa com espaço e é longa' })).toThrow(/justification/);
    expect(() => buildCancellationEvent({ ...cancel, justification: 'quebra\nde linha no meio' })).toThrow(/justification/);
    expect(() => buildCancellationEvent({ ...cancel, accessKey: key.slice(1) })).toThrow(/accessKey/);
    expect(() => buildCancellationEvent({ ...cancel, accessKey: `${key.slice(0, 43)}0` })).toThrow(/check digit/);
    expect(() => buildCancellationEvent({ ...cancel, author: { cnpj: '123' } })).toThrow(/author.cnpj/);
    expect(() => buildCancellationEvent({ ...cancel, utcOffset: '-03:30' })).toThrow(/utcOffset/);
    expect(() => buildCancellationEvent({ ...cancel, environment: 'test' as never })).toThrow(/environment/);
    expect(() => buildEnvEvento({ lotId: '1', signedEvents: [] })).toThrow(/1–20/);
    expect(() => buildEnvEvento({ lotId: '1', signedEvents: ['<evento versao="1.00"></evento>'] })).toThrow(/signed/);
    expect(() => buildEnvEvento({ lotId: 'x', signedEvents: ['<evento ><Signature/></evento>'] })).toThrow(/lotId/);
  });
});
