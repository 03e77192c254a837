// Documents signed by @talao/xml-signing must stay schema-valid: the NF-e xmldsig schema fixes the algorithms,
// the number of transforms and the element order of the Signature.
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12, verifyXmlSignature } from '@talao/xml-signing';
import { readSample } from '../testing/shared-fiscal.js';
import { validateXml } from './xsd-validator.js';

function compact(xml: string): string {
  return xml
    .replace(/^\uFEFF/, '')
    .replace(/<\?xml[^>]*\?>/, '')
    .replace(/<(\w+:)?Signature xmlns(:\w+)?="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">[\s\S]*?<\/\1Signature>/g, '')
    .replace(/>\s+</g, '><')
    .trim();
}

const ca = createTestCertificateAuthority();
const signer = createSigner(loadPkcs12(ca.issueA1({ taxId: '12345678000195', legalName: 'EMITENTE', password: 'p' }), 'p'));

describe('signed documents against the XSD', () => {
  it('an NF-e signed by the platform signer is valid against nfe_v4.00 and verifies', () => {
    const proc = compact(readSample('nfe/nfeProc_v4.00_IBSCBS_reforma_nfelib.xml'));
    const nfe = /<NFe>[\s\S]*<\/NFe>/.exec(proc)![0].replace('<NFe>', '<NFe xmlns="http://www.portalfiscal.inf.br/nfe">');
    const id = /<infNFe[^>]* Id="([^"]+)"/.exec(nfe)![1]!;
    expect(validateXml('nfe', nfe).valid).toBe(false); // the Signature is mandatory
    const signed = signer.signNfeFamily(nfe, id);
    expect(validateXml('nfe', signed)).toEqual({ valid: true });
    expect(verifyXmlSignature(signed).valid).toBe(true);
  });

  it('a cancellation event lot re-signed by the platform signer is valid against envEventoCancNFe', () => {
    const lot = compact(readSample('nfe/envEvento_cancelamento_110111_SIGNATURE_VALID.xml'));
    const id = /<infEvento Id="([^"]+)"/.exec(lot)![1]!;
    expect(validateXml('envEventoCancNFe', signer.signNfeFamily(lot, id))).toEqual({ valid: true });
  });

  it('a DPS signed with the NFS-e profile is valid against DPS_v1.01', () => {
    const dps = compact(readSample('nfse/DPS_v1.01_IBSCBS_minimal.xml'));
    const id = /<infDPS Id="([^"]+)"/.exec(dps)![1]!;
    const signed = signer.signDps(dps, id);
    expect(validateXml('dps', signed)).toEqual({ valid: true });
    expect(verifyXmlSignature(signed).valid).toBe(true);
  });
});
