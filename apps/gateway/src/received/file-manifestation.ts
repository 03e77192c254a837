// POST /received-invoices/{access_key}/manifestation: the rules and the row are @talao/received-invoices/manifest's;
// this waits for received-sync's decision within MANIFESTATION_WAIT_MS and turns it into the answer: 200 registered,
// 502 refused by the authorizer (its own code and message), 202 still pending; 404 / 409 / 422 refused locally.
import type { EnvironmentName } from '@talao/persistence';
import { grantsFullXml, ManifestationRefused, manifestationStateOf, requestManifestation } from '@talao/received-invoices/manifest';
import { refusedByAuthorizer } from '../http/authorizer-refusal.js';
import { presentManifestationEvent } from './list-received.js';
import type { ReceivedResources } from './received-resources.js';

export interface ManifestationAnswer {
  status: 200 | 202 | 404 | 409 | 422 | 502;
  body: Record<string, unknown>;
}

export async function fileManifestation(
  resources: ReceivedResources,
  request: { companyId: string; environment: EnvironmentName; accessKey: string; body: unknown },
): Promise<ManifestationAnswer> {
  let filed: Awaited<ReturnType<typeof requestManifestation>>;
  try {
    filed = await requestManifestation(resources.manifestationDeps, request);
  } catch (error) {
    if (error instanceof ManifestationRefused) return { status: error.status, body: { detail: error.detail } };
    throw error;
  }
  const { manifestations } = resources;
  // Decided is not yet done: a registered 210210/210200/210240 is followed, in the same job, by the fetch of the full
  // XML. Until that job has ended the row reads as still pending here, so the answer's `form` is the final one.
  const settled = async (id: string) => {
    const record = await manifestations.findById(id);
    if (!record || record.status !== 'registered' || !grantsFullXml(record.eventType)) return record;
    if ((await manifestations.documentById(record.documentId))?.hasFull) return record;
    const state = await resources.queue
      .getJob(id)
      .then((job) => job?.getState())
      .catch(() => 'unknown');
    return state === 'active' || state === 'waiting' || state === 'delayed' ? { ...record, status: 'pending' as const } : record;
  };
  const waited = await resources.waiter.waitForRecord(filed.manifestation.id, resources.waitMs, settled).catch(() => null);
  // The window may end between the decision and the fetch: the answer tells the decision as stored.
  const decided = (await manifestations.findById(filed.manifestation.id)) ?? waited ?? filed.manifestation;
  if (decided.status === 'rejected')
    return refusedByAuthorizer(decided, 'The authorizer refused the event', { manifestation_id: decided.id });
  // The document as it stands now: the full XML may have been fetched by the job that registered the event.
  const [document, history] = await Promise.all([
    manifestations.documentById(filed.document.id),
    manifestations.listForDocument(filed.document.id),
  ]);
  const { state, awaitingConclusive } = manifestationStateOf(filed.document.authorizedAt, history, new Date());
  return {
    status: decided.status === 'registered' ? 200 : 202,
    body: {
      access_key: filed.document.accessKey,
      document_type: 'nfe',
      state,
      awaiting_conclusive: awaitingConclusive,
      form: document?.hasFull ? 'full' : 'summary',
      manifestation: presentManifestationEvent(decided),
    },
  };
}
