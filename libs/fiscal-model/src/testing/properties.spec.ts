// Property tests: generated valid requests always validate; totals are the sums of the items; every amount has
// the layout's shape; the arbitraries reach every ICMS group. Imported through the published test entry.
import fc from 'fast-check';
import { ALL_ICMS_GROUPS, nfeScenarioArbitrary, nfseScenarioArbitrary, SAMPLE_TECHNICAL_RESPONSIBLE } from '@talao/fiscal-model/testing';
import { isAccessKeyValid } from '../access-key/access-key.js';
import { Dec, sum } from '../decimal/money.js';
import { computeDpsDocument } from '../documents/compute-dps.js';
import { computeNfeDocument } from '../documents/compute-nfe.js';
import type { NfeDocument } from '../documents/nfe-document.js';
import { validateInvoiceRequest } from '../request/validate-invoice-request.js';

const MONEY = /^(0|0\.\d{2}|[1-9]\d{0,12}(\.\d{2})?)$/;
/** Values with other places than 2 (TDec_1110v, TDec_1104(v), TDec_0302a04). */
const NOT_MONEY = new Set(['vUnCom', 'vUnTrib', 'vUnid', 'vAliqProd']);

function moneyFieldsOf(value: unknown, path: string, out: [string, string][]): [string, string][] {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && /^v[A-Z]/.test(k) && !NOT_MONEY.has(k)) out.push([`${path}.${k}`, v]);
      else moneyFieldsOf(v, `${path}.${k}`, out);
    }
  }
  return out;
}

function build(scenario: { issuer: Parameters<typeof computeNfeDocument>[1]; body: unknown; now: Date }, number = 1): NfeDocument {
  const r = validateInvoiceRequest(scenario.body, scenario.issuer, { now: scenario.now });
  if (!r.ok) throw new Error(`generated request refused: ${JSON.stringify(r.errors.slice(0, 3))}`);
  return computeNfeDocument(r.value, scenario.issuer, {
    environment: 'homologation',
    series: 1,
    number,
    invoiceId: `inv-${number}`,
    issuedAt: scenario.now,
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
  });
}

describe('properties', () => {
  it('random valid NF-e requests (1–20 items) validate and compute', () => {
    fc.assert(
      fc.property(nfeScenarioArbitrary({ maxItems: 20 }), fc.integer({ min: 1, max: 999_999_999 }), (scenario, n) => {
        const doc = build(scenario, n);
        expect(isAccessKeyValid(doc.accessKey)).toBe(true);
        for (const [path, v] of moneyFieldsOf(doc, 'NFe', [])) expect({ path, ok: MONEY.test(v) }).toEqual({ path, ok: true });
      }),
      { numRuns: 150 },
    );
  });

  it('totals are the sums of the items, and vNF follows the layout formula', () => {
    fc.assert(
      fc.property(nfeScenarioArbitrary({ maxItems: 30 }), (scenario) => {
        const doc = build(scenario);
        const t = doc.total.ICMSTot;
        const items = doc.det;
        const prod = (k: 'vProd' | 'vDesc' | 'vFrete' | 'vSeg' | 'vOutro') => sum(items.map((d) => d.prod[k] ?? '0')).toFixed(2);
        expect([t.vProd, t.vDesc, t.vFrete, t.vSeg, t.vOutro]).toEqual([
          prod('vProd'),
          prod('vDesc'),
          prod('vFrete'),
          prod('vSeg'),
          prod('vOutro'),
        ]);
        const icmsSum = (pick: (g: Record<string, unknown>) => unknown) =>
          sum(items.map((d) => String(pick(d.imposto.ICMS as unknown as Record<string, unknown>) ?? '0'))).toFixed(2);
        expect(t.vICMS).toBe(
          icmsSum((g) => (g.group === 'ICMS90' || g.group === 'ICMSSN900' ? (g.own as { vICMS?: string } | undefined)?.vICMS : g.vICMS)),
        );
        expect(t.vST).toBe(icmsSum((g) => (g.st as { vICMSST?: string } | undefined)?.vICMSST));
        expect(t.vIPI).toBe(sum(items.map((d) => (d.imposto.IPI && 'vIPI' in d.imposto.IPI ? d.imposto.IPI.vIPI : '0'))).toFixed(2));
        expect(t.vPIS).toBe(sum(items.map((d) => ('v' in d.imposto.PIS ? d.imposto.PIS.v : '0'))).toFixed(2));
        const itemTotals = sum(items.map((d) => d.itemTotal));
        const expected = itemTotals
          .plus(t.vST)
          .plus(t.vFCPST)
          .plus(t.vIPI)
          .minus(
            sum(
              items.map((d) => {
                const deson = (d.imposto.ICMS as { deson?: { vICMSDeson: string; indDeduzDeson?: string } }).deson;
                return deson?.indDeduzDeson === '1' ? deson.vICMSDeson : '0';
              }),
            ),
          );
        expect(t.vNF).toBe(expected.toFixed(2));
        const reform = items.filter((d) => d.imposto.IBSCBS);
        if (reform.length === 0) expect(doc.total.IBSCBSTot).toBeUndefined();
        else {
          expect(doc.total.IBSCBSTot!.vBCIBSCBS).toBe(sum(reform.map((d) => d.imposto.IBSCBS!.gIBSCBS.vBC)).toFixed(2));
          expect(doc.total.IBSCBSTot!.gIBS.vIBS).toBe(sum(reform.map((d) => d.imposto.IBSCBS!.gIBSCBS.vIBS)).toFixed(2));
          expect(doc.total.IBSCBSTot!.gCBS.vCBS).toBe(sum(reform.map((d) => d.imposto.IBSCBS!.gIBSCBS.gCBS.vCBS)).toFixed(2));
        }
        const paid = sum(doc.pag.detPag.map((p) => p.vPag));
        if (doc.pag.detPag[0]!.tPag !== '90') expect(paid.minus(doc.pag.vTroco ?? '0').toFixed(2)).toBe(t.vNF);
      }),
      { numRuns: 100 },
    );
  });

  it('handles 200 items (the arbitraries reach the maximum)', () => {
    fc.assert(
      fc.property(nfeScenarioArbitrary({ minItems: 200, maxItems: 200 }), (scenario) => {
        const doc = build(scenario);
        expect(doc.det).toHaveLength(200);
        expect(doc.total.ICMSTot.vProd).toBe(sum(doc.det.map((d) => d.prod.vProd)).toFixed(2));
      }),
      { numRuns: 5 },
    );
  });

  it('reaches every ICMS group of layout 4.00', () => {
    const seen = new Set<string>();
    for (const scenario of fc.sample(nfeScenarioArbitrary({ maxItems: 10 }), { numRuns: 400, seed: 42 })) {
      for (const d of build(scenario).det) seen.add(d.imposto.ICMS.group);
    }
    expect([...seen].sort()).toEqual([...ALL_ICMS_GROUPS].sort());
  });

  it('random valid NFS-e requests validate and combine into one DPS', () => {
    fc.assert(
      fc.property(nfseScenarioArbitrary(), fc.integer({ min: 1, max: 999_999 }), (scenario, n) => {
        const r = validateInvoiceRequest(scenario.body, scenario.issuer, { now: scenario.now });
        if (!r.ok) throw new Error(JSON.stringify(r.errors.slice(0, 3)));
        const dps = computeDpsDocument(r.value, scenario.issuer, {
          environment: 'homologation',
          series: 1,
          number: n,
          issuedAt: scenario.now,
        });
        expect(dps.id).toMatch(/^DPS\d{42}$/);
        const gross = sum(r.value.items.map((i) => new Dec(i.gross).plus(i.freight).plus(i.insurance).plus(i.otherExpenses)));
        expect(dps.valores.vServPrest.vServ).toBe(gross.toFixed(2));
        expect(dps.serv.cServ.xDescServ.split('; ')).toHaveLength(r.value.items.length);
      }),
      { numRuns: 100 },
    );
  });
});
