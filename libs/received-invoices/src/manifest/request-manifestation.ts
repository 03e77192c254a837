// POST /received-invoices/{access_key}/manifestation, the request side: the body, the document (the caller's, NF-e),
// every rule of manifestation-rules.ts, then the row `pending` and its `manifest` job (jobId = the row's id) on the
// received queue. No XML, signing or schema library is loaded from here (the gateway imports it).
import type { EnvironmentName, ManifestableDocument, ManifestationRecord, ReceivedManifestationsRepository } from '@talao/persistence';
import { enqueueReplacingEnded, type RequeueTarget } from '@talao/queue-contracts';
import { CHARSET_CODE, isCharsetIssue, layoutText } from '@talao/fiscal-model';
import { z } from 'zod';
import {
  checkManifestation,
  JUSTIFICATION_LENGTH,
  MANIFESTATION_CODES,
  type ManifestationCode,
  OPERATION_NOT_PERFORMED,
} from './manifestation-rules.js';

export class ManifestationRefused extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    readonly detail: string | Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : String(detail['message']));
  }
}

/** The received queue: a finished job of the same id (a refused slot filed again) is removed before enqueueing. */
export type ManifestationQueuePort = RequeueTarget;

export interface ManifestationRequestDeps {
  manifestations: Pick<ReceivedManifestationsRepository, 'findDocument' | 'listForDocument' | 'file' | 'findById'>;
  queue: ManifestationQueuePort;
  now?: () => Date;
}

// The justification as xJust carries it (folded, trimmed, printable Latin-1); its length is checked below.
const body = z.strictObject({ manifestation: z.string(), justification: layoutText().optional() });
const ACCESS_KEY = /^(\d{44}|\d{50})$/;

const invalid = (field: string, message: string, extra: Record<string, unknown> = {}) =>
  new ManifestationRefused(422, { code: 'FIELD_INVALID', field, message, ...extra });

/** The body as the rules read it, or the 422 naming the field. */
export function parseManifestationBody(raw: unknown): { code: ManifestationCode; justification: string | null } {
  const parsed = body.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const named = issue?.path.join('.') || (issue && 'keys' in issue ? String((issue.keys as string[])[0]) : 'body');
    const field = named.length > 100 ? `${named.slice(0, 100)}…` : named;
    if (isCharsetIssue(issue)) throw new ManifestationRefused(422, { code: CHARSET_CODE, field, message: `${field}: ${issue?.message}` });
    throw invalid(field, issue?.code === 'unrecognized_keys' ? `unknown field ${field}` : `${field}: ${issue?.message}`);
  }
  const { manifestation, justification } = parsed.data;
  if (!(MANIFESTATION_CODES as readonly string[]).includes(manifestation))
    // The value is never echoed back (it may be a megabyte of anything).
    throw invalid('manifestation', `manifestation must be one of ${MANIFESTATION_CODES.join(', ')}`, { expected: MANIFESTATION_CODES });
  const code = manifestation as ManifestationCode;
  if (code !== OPERATION_NOT_PERFORMED) {
    if (justification !== undefined) throw invalid('justification', `justification is taken by 210240 only, not by ${code}`);
    return { code, justification: null };
  }
  if (justification === undefined) throw invalid('justification', 'justification is required for 210240 (operation not performed)');
  if (justification.length < JUSTIFICATION_LENGTH.min || justification.length > JUSTIFICATION_LENGTH.max)
    throw invalid(
      'justification',
      `justification must be ${JUSTIFICATION_LENGTH.min} to ${JUSTIFICATION_LENGTH.max} characters (got ${justification.length})`,
    );
  return { code, justification };
}

/**
 * The row is in PostgreSQL already: when Redis is away the job is left to received-sync's sweep of pending rows
 * (false), never an error for the caller.
 */
export async function enqueueManifestation(deps: Pick<ManifestationRequestDeps, 'queue'>, manifestation: { id: string }): Promise<boolean> {
  try {
    // A row filed again after a refusal keeps its id; so does one whose job gave up.
    await enqueueReplacingEnded(deps.queue, { name: 'manifest', data: { manifestationId: manifestation.id } });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks and files the manifestation (or resumes the identical one still in flight) and enqueues its job. Refusals
 * throw ManifestationRefused: 404 (not the caller's), 409 (the authority's rule, with its code and message), 422.
 */
export async function requestManifestation(
  deps: ManifestationRequestDeps,
  request: { companyId: string; environment: EnvironmentName; accessKey: string; body: unknown },
): Promise<{ document: ManifestableDocument; manifestation: ManifestationRecord }> {
  // The body first, whatever the key: a malformed request is a 422 even on a key that does not exist.
  const wanted = parseManifestationBody(request.body);
  const notFound = new ManifestationRefused(404, 'Received invoice not found');
  if (!ACCESS_KEY.test(request.accessKey)) throw notFound;
  const document = await deps.manifestations.findDocument(request.companyId, request.environment, request.accessKey);
  if (!document) throw notFound;
  const filed = await deps.manifestations.listForDocument(document.id);
  const now = deps.now?.() ?? new Date();
  const check = checkManifestation(document, filed, wanted, now);
  if (check.ok === false) throw new ManifestationRefused(check.status, check.detail);
  if (check.ok === 'in-flight') {
    const pending = filed.find((m) => m.status === 'pending')!;
    await enqueueManifestation(deps, pending);
    return { document, manifestation: pending };
  }
  const manifestation = await deps.manifestations.file({
    document,
    eventType: wanted.code,
    sequence: check.sequence,
    justification: wanted.justification,
  });
  if (!manifestation)
    throw new ManifestationRefused(409, {
      code: 'MANIFESTATION_IN_PROGRESS',
      message: 'Another manifestation of this document is being filed at the same time',
    });
  await enqueueManifestation(deps, manifestation);
  return { document, manifestation };
}
