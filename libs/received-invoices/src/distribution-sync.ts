// What the NF-e and the NFS-e distribution syncs share: the company and its certificate, the tax id's lock (never two
// syncs of one tax id at once, a PostgreSQL advisory lock), the back-off a previous run recorded, the hour's pause
// after an answer with nothing new, and each page committed with its NSU and counted. Each channel keeps what is its
// own: how it asks, how it reads an answer and when it has caught up.
import type { FiscalEnvironment } from '@talao/authorizer-clients';
import type { CertificateCache } from '@talao/authorizer-exchange';
import type {
  ActiveCertificate,
  Company,
  ReceivedDocumentInput,
  ReceivedDocumentsRepository,
  ReceivedEventInput,
  ReceivedPage,
  ReceivedScope,
  ReceivedSyncSession,
} from '@talao/persistence';
import type { ReceivedChannelResult } from '@talao/queue-contracts';

export const HOUR_MS = 3_600_000;

/** What every channel needs; each channel adds its authorizer client. */
export interface DistributionSyncDeps {
  companies: { findById(id: string): Promise<Company | null> };
  certificates: { findActive(companyId: string): Promise<ActiveCertificate | null> };
  certificateCache: CertificateCache;
  received: ReceivedDocumentsRepository;
  logger: { info(bindings: object, message: string): void; warn(bindings: object, message: string): void };
  now?: () => Date;
  settings?: { maxPagesPerRun?: number; nothingNewPauseMs?: number; excessiveUsePauseMs?: number };
}

export interface SyncJob {
  companyId: string;
  environment: FiscalEnvironment;
}

/** One channel's run, holding the tax id's lock, from the NSU its last committed page left. */
export interface ChannelRun {
  company: Company;
  credentials: ReturnType<CertificateCache['load']>['credentials'];
  now: () => Date;
  maxPages: number;
  lastNsu: string;
  pages: CommittedPages;
}

/**
 * Runs `pageThrough` for the job's company under its tax id's lock, unless the company is gone or has no certificate
 * (skipped), another sync holds the lock (busy) or a back-off recorded by an earlier run still stands (blocked).
 */
export async function syncChannel(
  deps: DistributionSyncDeps,
  job: SyncJob,
  channel: ReceivedScope['channel'],
  pageThrough: (run: ChannelRun) => Promise<ReceivedChannelResult>,
): Promise<ReceivedChannelResult> {
  const now = deps.now ?? (() => new Date());
  const company = await deps.companies.findById(job.companyId);
  if (!company) return { kind: 'skipped', reason: 'no such company' };
  const stored = await deps.certificates.findActive(company.id);
  if (!stored) return { kind: 'skipped', reason: 'the company has no certificate' };
  const { credentials } = deps.certificateCache.load(stored.id, stored.pkcs12, stored.password);
  const scope: ReceivedScope = { companyId: company.id, environment: job.environment, channel };
  const result = await deps.received.withTaxIdLock(company.taxId, scope, async (session): Promise<ReceivedChannelResult> => {
    const state = await session.state();
    if (state.blockedUntil && state.blockedUntil > now()) {
      return { kind: 'blocked', until: state.blockedUntil.toISOString(), code: state.blockedCode ?? '', reason: state.blockedReason ?? '' };
    }
    const maxPages = deps.settings?.maxPagesPerRun ?? 200;
    return pageThrough({ company, credentials, now, maxPages, lastNsu: state.lastNsu, pages: new CommittedPages(session) });
  });
  return result === 'busy' ? { kind: 'busy' } : result;
}

type ChannelRecord =
  { kind: 'document'; record: ReceivedDocumentInput } | { kind: 'event'; record: ReceivedEventInput } | { kind: 'ignored' };

/** A page's rows: its documents and its events (anything else the authorizer hands out is skipped). */
export function rowsOf<D>(distributed: readonly D[], recordOf: (document: D) => ChannelRecord) {
  const documents: ReceivedDocumentInput[] = [];
  const events: ReceivedEventInput[] = [];
  for (const document of distributed) {
    const record = recordOf(document);
    if (record.kind === 'document') documents.push(record.record);
    else if (record.kind === 'event') events.push(record.record);
  }
  return { documents, events };
}

/** After an answer with nothing new: no new query for the tax id before the pause (an hour by default) ends. */
export function nothingNewPause(deps: DistributionSyncDeps, queriedAt: Date, code: string, reason: string) {
  return { until: new Date(queriedAt.getTime() + (deps.settings?.nothingNewPauseMs ?? HOUR_MS)), code, reason };
}

/** The pages a run commits, each in its own transaction, with the totals of what they brought. */
export class CommittedPages {
  readonly totals = { documents: 0, events: 0, pages: 0 };

  constructor(private readonly session: ReceivedSyncSession) {}

  /** A page of documents and events: committed with the NSU it reached, and counted. */
  async commit(page: ReceivedPage): Promise<void> {
    await this.session.commitPage(page);
    this.totals.documents += page.documents.length;
    this.totals.events += page.events.length;
    this.totals.pages += 1;
  }

  /** A refused query: the answer (and a block, if any) recorded, the NSU where it was; no page counted. */
  async refused(refusal: Omit<ReceivedPage, 'documents' | 'events'>): Promise<void> {
    await this.session.commitPage({ documents: [], events: [], ...refusal });
  }
}
