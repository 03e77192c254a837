// The contract with fiscal-model, end to end: a request the API accepts → validated → computed (computeNfeDocument /
// computeDpsDocument) → built → signed → schema-valid and verifiable. Uses fiscal-model's own sample requests.
import { computeDpsDocument, computeNfeDocument, validateInvoiceRequest, type IssuerProfile } from '@talao/fiscal-model';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12, verifyXmlSignature } from '@talao/xml-signing';
import { SAMPLE_TECHNICAL_RESPONSIBLE, sampleIssuer, sampleNfeRequest, sampleNfseRequest } from '../../../fiscal-model/src/testing/samples.js';
import { xmlsec1Verifies } from '../testing/xmlsec1.js';
import { buildSignValidateDps, buildSignValidateNfe } from './sign-and-validate.js';

const NOW = new Date('2026-03-10T15:00:00Z');
const authority = createTestCertificateAuthority();
const signer = createSigner(loadPkcs12(authority.issueA1({ taxId: '11222333000181', legalName: 'TALAO TESTE LTDA', password: 'x' }), 'x'));

function validated(body: Record<string, unknown>, issuer: IssuerProfile) {
  const result = validateInvoiceRequest(body, issuer, { now: NOW });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('request → computed document → signed XML', () => {
  // Simples Nacional: CSOSN instead of CST, no IBS/CBS group required.
  const simplesRequest = () => {
    const [item] = sampleNfeRequest().items as Record<string, unknown>[];
    return sampleNfeRequest({ items: [{ ...item, tax: { ...(item?.tax as object), icms: { csosn: '102', origin: '0' } }, ibs_cbs: undefined }] });
  };
  const cases = [
    { regime: 'normal' as const, environment: 'homologation' as const, contingency: undefined, request: sampleNfeRequest },
    { regime: 'simples_nacional' as const, environment: 'production' as const, contingency: undefined, request: simplesRequest },
    { regime: 'normal' as const, environment: 'homologation' as const, contingency: { type: 'SVC-AN' as const, at: new Date('2026-03-10T14:00:00Z'), reason: 'SEFAZ indisponivel desde as 11h' }, request: sampleNfeRequest },
  ];

  it.each(cases)('NF-e ($regime, $environment, contingency: $contingency.type)', ({ regime, environment, contingency, request }) => {
    const issuer = sampleIssuer(regime);
    const document = computeNfeDocument(validated(request(), issuer), issuer, {
      environment, series: 1, number: 1234, invoiceId: 'inv_01J0000000000000000000000', issuedAt: NOW, contingency,
      technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
    });
    const signed = buildSignValidateNfe(document, signer);
    expect(signed.xml).toContain(`<infNFe Id="NFe${document.accessKey}" versao="4.00">`);
    expect(verifyXmlSignature(signed.xml).valid).toBe(true);
    expect(xmlsec1Verifies(signed.xml, 'http://www.portalfiscal.inf.br/nfe', 'infNFe').ok).toBe(true);
  });

  it('NFS-e DPS', () => {
    const issuer = sampleIssuer('simples_nacional');
    const document = computeDpsDocument(validated(sampleNfseRequest(), issuer), issuer, { environment: 'homologation', series: 1, number: 77, issuedAt: NOW });
    const signed = buildSignValidateDps(document, signer);
    expect(signed.id).toBe(document.id);
    expect(verifyXmlSignature(signed.xml).valid).toBe(true);
    expect(xmlsec1Verifies(signed.xml, 'http://www.sped.fazenda.gov.br/nfse', 'infDPS').ok).toBe(true);
  });
});
