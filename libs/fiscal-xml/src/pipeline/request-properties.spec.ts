// The proof issue 3 asks for, from the API's side: random VALID REQUESTS (fiscal-model's published arbitraries)
// → validateInvoiceRequest → computeNfeDocument / computeDpsDocument → buildSignValidateNfe / buildSignValidateDps
// with a real A1 certificate from the test CA → every document XSD-valid (the pipeline throws otherwise), every
// signature verified by xml-crypto, a sample by xmlsec1. The coverage the issue names is asserted, so a change
// in the arbitraries that stops reaching a case fails here instead of silently shrinking the proof.
// Seeds are fixed: the coverage assertions must not depend on luck; change a seed to explore other inputs.
import fc from 'fast-check';
import { computeDpsDocument, computeNfeDocument, validateInvoiceRequest, type NfeContext } from '@talao/fiscal-model';
import {
  ALL_ICMS_GROUPS,
  nfeScenarioArbitrary,
  nfseScenarioArbitrary,
  SAMPLE_TECHNICAL_RESPONSIBLE,
  taxIdArbitrary,
  type InvoiceScenario,
} from '@talao/fiscal-model/testing';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12, verifyXmlSignature } from '@talao/xml-signing';
import { xmlsec1Verifies } from '../testing/xmlsec1.js';
import { buildSignValidateDps, buildSignValidateNfe } from './sign-and-validate.js';

const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
const NFSE_NS = 'http://www.sped.fazenda.gov.br/nfse';

// Issuing a PKCS#12 costs about a second (forge's pure-JS encryption): once for the whole file.
const authority = createTestCertificateAuthority();
const signer = createSigner(loadPkcs12(authority.issueA1({ taxId: '11222333000181', legalName: 'TALAO TESTE LTDA', password: 'x' }), 'x'));

const taxIdKind = (id: string | undefined) =>
  id === undefined ? 'none' : id.length === 11 ? 'CPF' : /[A-Z]/.test(id) ? 'CNPJ-alphanumeric' : 'CNPJ-numeric';

function validated(scenario: InvoiceScenario) {
  const result = validateInvoiceRequest(scenario.body, scenario.issuer, { now: scenario.now });
  if (!result.ok) throw new Error(`a generated request was refused: ${JSON.stringify(result.errors.slice(0, 3))}`);
  return result.value;
}

/** What the NF-e runs reached; asserted after the properties ran. */
const nfeCoverage = {
  icmsGroups: new Set<string>(),
  issuerIds: new Set<string>(),
  buyerIds: new Set<string>(),
  tpEmis: new Set<string>(),
  environments: new Set<string>(),
  withIcmsUfDest: 0,
  withIbsCbs: 0,
  /** Items, not documents: an item without ibs_cbs must emit nothing of the reform, even beside items with it. */
  itemsWithoutIbsCbs: 0,
  largest: 0,
  documents: 0,
  xmlsec1: 0,
};

/** The issuer's side of a request the request itself does not carry: its tax id, the environment, numbering, contingency. */
const nfeContextArbitrary = fc.record({
  issuerTaxId: taxIdArbitrary,
  environment: fc.constantFrom<NfeContext['environment']>('homologation', 'production'),
  series: fc.integer({ min: 0, max: 999 }),
  number: fc.integer({ min: 1, max: 999_999_999 }),
  invoiceId: fc.uuid(),
  contingency: fc.constantFrom(undefined, 'SVC-AN' as const, 'SVC-RS' as const),
});

type NfeRunContext = typeof nfeContextArbitrary extends fc.Arbitrary<infer C> ? C : never;

function checkNfe(scenario: InvoiceScenario, context: NfeRunContext, withXmlsec1: boolean): void {
  const issuer = { ...scenario.issuer, taxId: context.issuerTaxId };
  const body = context.contingency ? { ...scenario.body, contingency: true } : scenario.body;
  const request = validated({ ...scenario, issuer, body });
  const document = computeNfeDocument(request, issuer, {
    environment: context.environment,
    series: context.series,
    number: context.number,
    invoiceId: context.invoiceId,
    issuedAt: scenario.now,
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
    ...(context.contingency
      ? {
          contingency: {
            type: context.contingency,
            at: new Date(scenario.now.getTime() - 3_600_000),
            reason: 'Autorizador indisponivel desde as 11h',
          },
        }
      : {}),
  });
  const signed = buildSignValidateNfe(document, signer); // throws XsdValidationError unless schema-valid
  expect(signed.id).toBe(`NFe${document.accessKey}`);
  const verification = verifyXmlSignature(signed.xml);
  if (!verification.valid) throw new Error(`xml-crypto: ${verification.reason}`);
  if (withXmlsec1) {
    const xmlsec = xmlsec1Verifies(signed.xml, NFE_NS, 'infNFe');
    if (!xmlsec.ok) throw new Error(`xmlsec1: ${xmlsec.output}`);
    nfeCoverage.xmlsec1++;
  }
  for (const item of document.det) nfeCoverage.icmsGroups.add(item.imposto.ICMS.group);
  nfeCoverage.issuerIds.add(taxIdKind(document.emit.CNPJ ?? document.emit.CPF));
  nfeCoverage.buyerIds.add(taxIdKind(document.dest.CNPJ ?? document.dest.CPF));
  nfeCoverage.tpEmis.add(document.ide.tpEmis);
  nfeCoverage.environments.add(document.ide.tpAmb);
  // Optional groups appear exactly for the items the model computed them for (the builder adds and drops nothing).
  const occurrences = (tag: string) => signed.xml.split(`<${tag}>`).length - 1;
  const difalItems = document.det.filter((d) => d.imposto.ICMSUFDest).length;
  const reformItems = document.det.filter((d) => d.imposto.IBSCBS).length;
  expect([occurrences('ICMSUFDest'), occurrences('IBSCBS')]).toEqual([difalItems, reformItems]);
  if (difalItems > 0) {
    nfeCoverage.withIcmsUfDest++;
    expect(signed.xml).toContain(
      `<vICMSDeson>${document.total.ICMSTot.vICMSDeson}</vICMSDeson><vFCPUFDest>${document.total.ICMSTot.vFCPUFDest}</vFCPUFDest>`,
    );
  }
  if (document.total.IBSCBSTot) nfeCoverage.withIbsCbs++;
  nfeCoverage.itemsWithoutIbsCbs += document.det.length - reformItems;
  nfeCoverage.largest = Math.max(nfeCoverage.largest, document.det.length);
  nfeCoverage.documents++;
}

describe('valid requests → validated → computed → signed XML (property-based)', () => {
  const SMALL_RUNS = 60;
  const LARGE_RUNS = 3;

  it('NF-e, 1–30 items: XSD-valid, xml-crypto verifies all, xmlsec1 the first 8', () => {
    let run = 0;
    fc.assert(
      fc.property(nfeScenarioArbitrary({ minItems: 1, maxItems: 30 }), nfeContextArbitrary, (scenario, context) => {
        checkNfe(scenario, context, run++ < 8);
      }),
      { numRuns: SMALL_RUNS, seed: 20260731 },
    );
  });

  it('NF-e, 150–200 items: XSD-valid, both verifiers on every document', () => {
    fc.assert(
      fc.property(nfeScenarioArbitrary({ minItems: 150, maxItems: 200 }), nfeContextArbitrary, (scenario, context) =>
        checkNfe(scenario, context, true),
      ),
      { numRuns: LARGE_RUNS, seed: 4242 },
    );
  });

  // Reads what the two properties above recorded (Jest runs the tests of a file in order).
  it('the NF-e runs reached every case the issue names', () => {
    expect(nfeCoverage.documents).toBe(SMALL_RUNS + LARGE_RUNS);
    expect(nfeCoverage.xmlsec1).toBe(8 + LARGE_RUNS);
    expect([...nfeCoverage.icmsGroups].sort()).toEqual([...ALL_ICMS_GROUPS].sort());
    expect(ALL_ICMS_GROUPS).toHaveLength(21);
    expect([...nfeCoverage.issuerIds].sort()).toEqual(['CNPJ-alphanumeric', 'CNPJ-numeric', 'CPF']);
    expect([...nfeCoverage.buyerIds].sort()).toEqual(['CNPJ-alphanumeric', 'CNPJ-numeric', 'CPF']);
    expect([...nfeCoverage.tpEmis].sort()).toEqual(['1', '6', '7']);
    expect([...nfeCoverage.environments].sort()).toEqual(['1', '2']);
    expect(nfeCoverage.withIcmsUfDest).toBeGreaterThan(0);
    expect(nfeCoverage.withIbsCbs).toBeGreaterThan(0);
    expect(nfeCoverage.itemsWithoutIbsCbs).toBeGreaterThan(0);
    expect(nfeCoverage.largest).toBeGreaterThanOrEqual(150);
  });

  it('NFS-e → DPS, 1–20 services: XSD-valid, xml-crypto verifies all, xmlsec1 the first 10; CPF/CNPJ on both sides', () => {
    const DPS_RUNS = 40;
    const XMLSEC1_SAMPLE = 10;
    const providerIds = new Set<string>();
    const takerIds = new Set<string>();
    const regimes = new Set<string>();
    let withIbsCbs = 0;
    let withRetention = 0;
    let withObservations = 0;
    let largest = 0;
    let checked = 0;
    // DPS v1.01 carries a numeric CNPJ only (the schema's TSCNPJ), so the provider is a CPF or a numeric CNPJ.
    const providerTaxId = fc.oneof(fc.stringMatching(/^\d{11}$/), fc.stringMatching(/^\d{14}$/));
    fc.assert(
      fc.property(
        nfseScenarioArbitrary({ minItems: 1, maxItems: 20 }),
        providerTaxId,
        fc.integer({ min: 1, max: 999_999_999 }),
        (scenario, taxId, number) => {
          const issuer = { ...scenario.issuer, taxId };
          const document = computeDpsDocument(validated({ ...scenario, issuer }), issuer, {
            environment: 'homologation',
            series: 1,
            number,
            issuedAt: scenario.now,
          });
          const signed = buildSignValidateDps(document, signer); // throws unless schema-valid
          expect(signed.id).toBe(document.id);
          const verification = verifyXmlSignature(signed.xml);
          if (!verification.valid) throw new Error(`xml-crypto: ${verification.reason}`);
          if (checked < XMLSEC1_SAMPLE) {
            const xmlsec = xmlsec1Verifies(signed.xml, NFSE_NS, 'infDPS');
            if (!xmlsec.ok) throw new Error(`xmlsec1: ${xmlsec.output}`);
            checked++;
          }
          providerIds.add(taxIdKind(taxId));
          takerIds.add(taxIdKind(String(scenario.body.tax_id)));
          if (signed.xml.includes('<tpRetISSQN>2</tpRetISSQN>')) withRetention++;
          if (signed.xml.includes('<xInfComp>')) withObservations++;
          regimes.add(issuer.taxRegime);
          if (signed.xml.includes('<IBSCBS>')) withIbsCbs++;
          largest = Math.max(largest, (scenario.body.items as unknown[]).length);
        },
      ),
      { numRuns: DPS_RUNS, seed: 1707 },
    );
    expect(checked).toBe(XMLSEC1_SAMPLE);
    expect([...providerIds].sort()).toEqual(['CNPJ-numeric', 'CPF']);
    expect([...takerIds].sort()).toEqual(['CNPJ-numeric', 'CPF']);
    expect([...regimes].sort()).toEqual(['mei', 'normal', 'simples_nacional']);
    expect(withIbsCbs).toBeGreaterThan(0);
    expect(withIbsCbs).toBeLessThan(DPS_RUNS);
    expect(withRetention).toBeGreaterThan(0);
    expect(withObservations).toBeGreaterThan(0);
    expect(largest).toBeGreaterThanOrEqual(15);
  });
});
