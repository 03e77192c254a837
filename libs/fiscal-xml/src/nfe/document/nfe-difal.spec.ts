// ICMSUFDest (DIFAL) end to end: an interstate sale from SP to a CPF buyer in RJ (a non-contributor final
// consumer) → validated → computed by fiscal-model → built → signed → XSD-valid, with the computed values in the
// XSD positions (imposto: after COFINS, before IBSCBS; ICMSTot: right after vICMSDeson).
import { computeNfeDocument, validateInvoiceRequest, type NfeDocument } from '@talao/fiscal-model';
import { SAMPLE_RJ_ADDRESS, SAMPLE_TECHNICAL_RESPONSIBLE, sampleIssuer, sampleNfeRequest } from '@talao/fiscal-model/testing';
import { createTestCertificate, signWithXmlCrypto } from '../../testing/test-signer.js';
import { validateXml } from '../../xsd/xsd-validator.js';
import { buildNfe } from './build-nfe.js';

const NOW = new Date('2026-03-10T15:00:00Z');
const cert = createTestCertificate();
const IBS_CBS = { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' };
const PIS_COFINS = { pis: { cst: '07' }, cofins: { cst: '07' } };

function interstateSaleToConsumer(): NfeDocument {
  const issuer = sampleIssuer('normal'); // SP
  const body = sampleNfeRequest({
    client_name: 'Joana Pereira',
    tax_id: '12345678909',
    recipient_address: SAMPLE_RJ_ADDRESS,
    items: [
      {
        // 100.00 + IPI 10% = DIFAL base 110.00: 20% − 12% = 8.80, FCP 2% = 2.20
        description: 'Cafeteira eletrica',
        unit_price: '100.00',
        product: {
          quantity: '1',
          unit: 'UN',
          br: {
            ncm: '85167100',
            cfop: '6108',
            ibs_cbs: IBS_CBS,
            tax: {
              icms: { cst: '00', origin: '0', rate: '12' },
              ipi: { cst: '50', rate: '10' },
              icms_destination: { rate: '20', interstate_rate: '12', fcp_rate: '2' },
              ...PIS_COFINS,
            },
          },
        },
      },
      {
        // imported (origin 1, 4%), 2 × 25.00 = 50.00: 18% − 4% = 7.00, no FCP
        description: 'Filtro de papel',
        unit_price: '25.00',
        product: {
          quantity: '2',
          unit: 'UN',
          br: {
            ncm: '48239099',
            cfop: '6108',
            ibs_cbs: IBS_CBS,
            tax: { icms: { cst: '00', origin: '1', rate: '4' }, icms_destination: { rate: '18', interstate_rate: '4' }, ...PIS_COFINS },
          },
        },
      },
    ],
  });
  const validated = validateInvoiceRequest(body, issuer, { now: NOW });
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  return computeNfeDocument(validated.value, issuer, {
    environment: 'homologation',
    series: 1,
    number: 501,
    invoiceId: 'inv_difal_1',
    issuedAt: NOW,
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
  });
}

function signedAndValid(doc: NfeDocument): string {
  const nfe = buildNfe(doc);
  const signed = signWithXmlCrypto(nfe.xml, nfe.id, cert);
  expect(validateXml('nfe', signed)).toEqual({ valid: true });
  return nfe.xml;
}

describe('ICMSUFDest (DIFAL)', () => {
  it('an interstate sale to a CPF buyer emits ICMSUFDest per item and the ICMSTot DIFAL totals, XSD-valid', () => {
    const doc = interstateSaleToConsumer();
    expect(doc.ide.idDest).toBe('2');
    expect(doc.ide.indFinal).toBe('1');
    const xml = signedAndValid(doc);

    const groups = [...xml.matchAll(/<\/COFINS>(<ICMSUFDest>.*?<\/ICMSUFDest>)<IBSCBS>/g)].map((m) => m[1]);
    expect(groups).toEqual([
      '<ICMSUFDest><vBCUFDest>110.00</vBCUFDest><vBCFCPUFDest>110.00</vBCFCPUFDest><pFCPUFDest>2.00</pFCPUFDest><pICMSUFDest>20.00</pICMSUFDest>' +
        '<pICMSInter>12.00</pICMSInter><pICMSInterPart>100.00</pICMSInterPart><vFCPUFDest>2.20</vFCPUFDest><vICMSUFDest>8.80</vICMSUFDest>' +
        '<vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest>',
      '<ICMSUFDest><vBCUFDest>50.00</vBCUFDest><pICMSUFDest>18.00</pICMSUFDest><pICMSInter>4.00</pICMSInter><pICMSInterPart>100.00</pICMSInterPart>' +
        '<vICMSUFDest>7.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest>',
    ]);
    expect(xml).toContain(
      '<vICMSDeson>0.00</vICMSDeson><vFCPUFDest>2.20</vFCPUFDest><vICMSUFDest>15.80</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet><vFCP>',
    );
    // The XML carries what fiscal-model computed, not values of its own.
    const { vFCPUFDest, vICMSUFDest, vICMSUFRemet } = doc.total.ICMSTot;
    expect({ vFCPUFDest, vICMSUFDest, vICMSUFRemet }).toEqual({ vFCPUFDest: '2.20', vICMSUFDest: '15.80', vICMSUFRemet: '0.00' });
    expect(doc.det.map((d) => d.imposto.ICMSUFDest?.vICMSUFDest)).toEqual(['8.80', '7.00']);
  });

  it('a sale without DIFAL writes none of it', () => {
    const issuer = sampleIssuer('normal');
    const validated = validateInvoiceRequest(sampleNfeRequest(), issuer, { now: NOW });
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const doc = computeNfeDocument(validated.value, issuer, {
      environment: 'homologation',
      series: 1,
      number: 502,
      invoiceId: 'inv_difal_2',
      issuedAt: NOW,
      technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
    });
    expect(signedAndValid(doc)).not.toMatch(/UFDest|UFRemet/);
  });

  it('the XSD checks the group (a wrong interstate rate is refused) and the builder refuses partial DIFAL data', () => {
    const doc = interstateSaleToConsumer();
    const nfe = buildNfe(doc);
    const wrongRate = nfe.xml.replace('<pICMSInter>12.00</pICMSInter>', '<pICMSInter>5.00</pICMSInter>');
    expect(validateXml('nfe', signWithXmlCrypto(wrongRate, nfe.id, cert)).valid).toBe(false);

    const [first, second] = doc.det;
    const withoutFcpValue = {
      ...first!,
      imposto: { ...first!.imposto, ICMSUFDest: { ...first!.imposto.ICMSUFDest!, vFCPUFDest: undefined } },
    };
    expect(() => buildNfe({ ...doc, det: [withoutFcpValue, second!] })).toThrow(/pFCPUFDest and vFCPUFDest/);
    expect(() => buildNfe({ ...doc, total: { ...doc.total, ICMSTot: { ...doc.total.ICMSTot, vICMSUFRemet: undefined } } })).toThrow(
      /go together/,
    );
  });
});
