// The identity recorded at creation (key, total) is the one the document computed later carries: for random valid
// requests, in both orders of the hand-over (the create side takes validation's computation, the worker computes
// afresh from the stored request).
import fc from 'fast-check';
import { nfeScenarioArbitrary, nfseScenarioArbitrary, SAMPLE_TECHNICAL_RESPONSIBLE } from '@talao/fiscal-model/testing';
import { Dec } from '../decimal/money.js';
import { validateInvoiceRequest } from '../request/validate-invoice-request.js';
import { computeDpsDocument } from './compute-dps.js';
import { computeNfeDocument } from './compute-nfe.js';
import { documentIdentity } from './document-identity.js';

function validated(scenario: { issuer: Parameters<typeof validateInvoiceRequest>[1]; body: unknown; now: Date }) {
  const result = validateInvoiceRequest(scenario.body, scenario.issuer, { now: scenario.now });
  if (!result.ok) throw new Error(`generated request refused: ${JSON.stringify(result.errors.slice(0, 3))}`);
  return result.value;
}

describe('documentIdentity', () => {
  it('NF-e: the access key and vNF of the document computed later from the stored request', () => {
    fc.assert(
      fc.property(
        nfeScenarioArbitrary({ maxItems: 12 }),
        fc.integer({ min: 1, max: 999_999_999 }),
        fc.integer({ min: 0, max: 999 }),
        (scenario, number, series) => {
          const context = {
            series,
            number,
            invoiceId: `8f2c3b1e-0000-4000-8000-${String(number).padStart(12, '0')}`,
            issuedAt: scenario.now,
          };
          const identity = documentIdentity(validated(scenario), scenario.issuer, context);
          // The worker reads the request back from storage: new objects, nothing handed over.
          const stored = JSON.parse(JSON.stringify(validated(scenario)));
          const nfe = computeNfeDocument(stored, scenario.issuer, {
            ...context,
            environment: 'production',
            technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
          });
          expect(identity).toEqual({ documentType: 'nfe', accessKey: nfe.accessKey, totalAmount: nfe.total.ICMSTot.vNF });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('NFS-e: the DPS id and the service value less the unconditional discount', () => {
    fc.assert(
      fc.property(nfseScenarioArbitrary(), fc.integer({ min: 1, max: 999_999 }), (scenario, number) => {
        const request = validated(scenario);
        const identity = documentIdentity(request, scenario.issuer, {
          series: 3,
          number,
          invoiceId: 'unused by a DPS',
          issuedAt: scenario.now,
        });
        const dps = computeDpsDocument(request, scenario.issuer, {
          environment: 'homologation',
          series: 3,
          number,
          issuedAt: scenario.now,
        });
        const total = new Dec(dps.valores.vServPrest.vServ).minus(dps.valores.vDescCondIncond?.vDescIncond ?? '0').toFixed(2);
        expect(identity).toEqual({ documentType: 'nfse', dpsId: dps.id, totalAmount: total });
      }),
      { numRuns: 100 },
    );
  });
});
