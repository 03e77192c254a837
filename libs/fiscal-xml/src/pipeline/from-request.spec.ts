// The contract with fiscal-model, end to end: a request the API accepts → validated → computed (computeNfeDocument /
// computeDpsDocument) → built → signed → schema-valid and verifiable. Uses fiscal-model's own sample requests.
import { computeDpsDocument, computeNfeDocument, validateInvoiceRequest, type IssuerProfile } from '@talao/fiscal-model';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12, verifyXmlSignature } from '@talao/xml-signing';
import * as samples from '@talao/fiscal-model/testing';
import { xmlsec1Verifies } from '../testing/xmlsec1.js';
import { buildNfeProc } from '../nfe/nfe-proc.js';
import { buildEnviNFe } from '../nfe/service-requests.js';
import { parseRetEnviNFe } from '../parsing/nfe-responses.js';
import { validateXml } from '../xsd/xsd-validator.js';
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
  const simplesRequest = () =>
    samples.sampleNfeRequest({
      items: [
        samples.sampleNfeItem({
          unit_price: '10',
          ibs_cbs: null,
          tax: { icms: { csosn: '102', origin: '0' }, pis: { cst: '49', rate: '0' }, cofins: { cst: '49', rate: '0' } },
        }),
      ],
    });
  // Goods under tax substitution (ICMS 60) with product.br.cest + manufacturer_cnpj → CEST, indEscala N, CNPJFab (the
  // layout's optional sequence).
  const manufacturerRequest = () =>
    samples.sampleNfeRequest({
      items: [
        samples.sampleNfeItem({
          unit_price: '10',
          product: { barcode: '7891000315507' },
          tax: { icms: { cst: '60', origin: '0' }, pis: { cst: '01', rate: '1.65' }, cofins: { cst: '01', rate: '7.6' } },
          br: { cest: '2806300', manufacturer_cnpj: '12ABC34501DE35' },
        }),
      ],
    });
  const cases = [
    { regime: 'normal' as const, environment: 'homologation' as const, contingency: undefined, request: samples.sampleNfeRequest },
    { regime: 'simples_nacional' as const, environment: 'production' as const, contingency: undefined, request: simplesRequest },
    { regime: 'normal' as const, environment: 'production' as const, contingency: undefined, request: manufacturerRequest },
    {
      regime: 'normal' as const,
      environment: 'homologation' as const,
      contingency: { type: 'SVC-AN' as const, at: new Date('2026-03-10T14:00:00Z'), reason: 'SEFAZ indisponivel desde as 11h' },
      request: samples.sampleNfeRequest,
    },
  ];

  it.each(cases)('NF-e ($regime, $environment, contingency: $contingency.type)', ({ regime, environment, contingency, request }) => {
    const issuer = samples.sampleIssuer(regime);
    const document = computeNfeDocument(validated(request(), issuer), issuer, {
      environment,
      series: 1,
      number: 1234,
      invoiceId: 'inv_01J0000000000000000000000',
      issuedAt: NOW,
      contingency,
      technicalResponsible: samples.SAMPLE_TECHNICAL_RESPONSIBLE,
    });
    const signed = buildSignValidateNfe(document, signer);
    expect(signed.xml).toContain(`<infNFe Id="NFe${document.accessKey}" versao="4.00">`);
    expect(verifyXmlSignature(signed.xml).valid).toBe(true);
    expect(xmlsec1Verifies(signed.xml, 'http://www.portalfiscal.inf.br/nfe', 'infNFe').ok).toBe(true);

    // The lot embeds the signed NF-e as is; the nfeProc joins it with the protocol the authorizer answers.
    const lot = buildEnviNFe({ lotId: '1', signedNfe: signed.xml });
    expect(validateXml('enviNFe', lot)).toEqual({ valid: true });
    expect(xmlsec1Verifies(lot, 'http://www.portalfiscal.inf.br/nfe', 'infNFe').ok).toBe(true);
    const answer =
      '<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><nfeResultMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4">' +
      `<retEnviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><cStat>104</cStat><xMotivo>Lote processado</xMotivo><cUF>35</cUF><dhRecbto>2026-03-10T12:00:01-03:00</dhRecbto>` +
      `<protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>${document.accessKey}</chNFe><dhRecbto>2026-03-10T12:00:01-03:00</dhRecbto><nProt>135260000000123</nProt><digVal>AAAAAAAAAAAAAAAAAAAAAAAAAAA=</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>` +
      '</retEnviNFe></nfeResultMsg></soap:Body></soap:Envelope>';
    const protocol = parseRetEnviNFe(answer).protocol;
    const proc = buildNfeProc({ signedNfe: signed.xml, protocolXml: protocol?.rawXml ?? '' });
    expect(validateXml('procNFe', proc)).toEqual({ valid: true });
    expect(verifyXmlSignature(proc).valid).toBe(true);
  });

  it('NFS-e DPS', () => {
    const issuer = samples.sampleIssuer('simples_nacional');
    const document = computeDpsDocument(validated(samples.sampleNfseRequest(), issuer), issuer, {
      environment: 'homologation',
      series: 1,
      number: 77,
      issuedAt: NOW,
    });
    const signed = buildSignValidateDps(document, signer);
    expect(signed.id).toBe(document.id);
    expect(verifyXmlSignature(signed.xml).valid).toBe(true);
    expect(xmlsec1Verifies(signed.xml, 'http://www.sped.fazenda.gov.br/nfse', 'infDPS').ok).toBe(true);
  });

  it('NFS-e DPS with tax_retained, observations and a recipient address: tpRetISSQN 2, xInfComp, taker named by the test phrase', () => {
    const issuer = samples.sampleIssuer('normal');
    const body = samples.sampleNfseRequest({
      client_name: 'Condominio Edificio Aurora',
      recipient_address: { ...samples.SAMPLE_RJ_ADDRESS, number: 'S/N' },
      items: [
        {
          description: 'Limpeza predial',
          unit_price: '1200.50',
          service_code: '7.10',
          tax_retained: true,
          observations: 'ISS retido na fonte pelo tomador (LC 116/2003, art. 6º)',
          ibs_cbs: { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' },
        },
      ],
      additional_info: 'Contrato 7/2026',
    });
    const document = computeDpsDocument(validated(body, issuer), issuer, {
      environment: 'homologation',
      series: 1,
      number: 78,
      issuedAt: NOW,
    });
    const signed = buildSignValidateDps(document, signer); // the official DPS v1.01 schema, or it throws
    expect(signed.xml).toContain('<tpRetISSQN>2</tpRetISSQN>');
    expect(signed.xml).toContain(
      '<infoCompl><xInfComp>ISS retido na fonte pelo tomador (LC 116/2003, art. 6º) | Contrato 7/2026</xInfComp></infoCompl>',
    );
    expect(signed.xml).toContain('<xNome>NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL</xNome>');
    expect(signed.xml).toContain('<nro>S/N</nro>');
    expect(verifyXmlSignature(signed.xml).valid).toBe(true);
  });
});
