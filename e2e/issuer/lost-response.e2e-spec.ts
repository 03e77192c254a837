// An answer lost after the document was sent, for both document types: the attempt ends `unknown`, the issuer asks the
// authorizer what it holds (consSitNFe / GET /dps) instead of sending again, and the invoice is issued with what the
// authorizer holds. Use cases in-process, the issuer's worker and the simulator (real process, mTLS) as in the other
// issuer specs.
import { jest } from '@jest/globals';
import { createInvoice } from '@talao/issuance';
import { sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { useHarness } from './support/issuer-harness.js';

jest.setTimeout(60_000);

const h = useHarness();

type Submission = Awaited<ReturnType<ReturnType<typeof h>['prisma']['submission']['findMany']>>[number];
type Invoice = Awaited<ReturnType<ReturnType<typeof h>['prisma']['invoice']['findUniqueOrThrow']>>;

interface LostAnswerCase {
  documentType: 'nfe' | 'nfse';
  /** The simulated authority whose next answer is dropped. */
  authority: 'SP' | 'SEFIN';
  body: () => Record<string, unknown>;
  /** Every exchange of the invoice, in order: [operation, outcome]. */
  exchanges: [string, string][];
  /** What else holds for this document type once issued. */
  thenAlso: (invoice: Invoice, submissions: Submission[]) => Promise<void>;
}

const CASES: LostAnswerCase[] = [
  {
    documentType: 'nfe',
    authority: 'SP',
    body: sampleNfeRequest,
    exchanges: [
      ['NFeAutorizacao4', 'unknown'],
      ['NFeConsultaProtocolo4', 'accepted'],
    ],
    // One document at the simulator, the protocol it holds, one event: nothing was sent twice.
    thenAlso: async (invoice, submissions) => {
      expect(submissions[0]!.responseBody).toBeNull();
      const held = await h().sim.control('GET', `/_control/documents/${invoice.accessKey}`);
      expect(held.status).toBe(200);
      expect(invoice.protocol).toBe(String(held.json['nProt']));
      const events = await h().prisma.outboxEvent.findMany({ where: { aggregateId: invoice.id }, orderBy: { createdAt: 'asc' } });
      expect(events.map((e) => e.type)).toEqual(['invoice.authorized']);
    },
  },
  {
    documentType: 'nfse',
    authority: 'SEFIN',
    body: sampleNfseRequest,
    exchanges: [
      ['POST /nfse', 'unknown'],
      ['GET /dps', 'accepted'],
      ['GET /nfse', 'accepted'],
    ],
    // The key is the one the national environment holds (read from GET /dps), not one of ours: no second DPS.
    thenAlso: async (invoice, submissions) => {
      expect(invoice.accessKey).toMatch(/^[0-9]{50}$/);
      expect(invoice.authorizedXml).toContain(invoice.accessKey!);
      expect(submissions[1]!.responseBody).toContain(invoice.accessKey!);
    },
  },
];

it.each(CASES)('$documentType: authorized but the answer dropped → unknown → consult → issued, no resend', async (c) => {
  const companyId = await h().createCompany();
  await h().sim.control('PUT', `/_control/faults/${c.authority}`, { dropResponses: 1 });
  const { invoice: created, enqueued } = await createInvoice(h().createDeps, { companyId, environment: 'homologation', body: c.body() });
  expect(enqueued).toBe(true);
  expect((await h().waitForFinal(created.id)).status).toBe('issued');
  const submissions = await h().prisma.submission.findMany({ where: { invoiceId: created.id }, orderBy: { attempt: 'asc' } });
  expect(submissions.map((s) => [s.operation, s.outcome])).toEqual(c.exchanges);
  await c.thenAlso(await h().prisma.invoice.findUniqueOrThrow({ where: { id: created.id } }), submissions);
});
