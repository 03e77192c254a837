// POST /invoices reads the issuing company and its active certificate on every call, only to check the
// configuration (400) and plan the document. Both change rarely (operator actions), so the gateway keeps what it
// read for a few seconds per company (ISSUER_CACHE_TTL_MS, default 2 000; 0 turns it off):
//   - a change through this process's admin API forgets everything at once (GatewayResources.configurationChanged);
//   - a change elsewhere (another replica, the admin CLI, the database) is seen within the TTL.
// Only the certificate's metadata is kept (subject, validity): never the PKCS#12 or its password. The issuer reads
// both itself when it signs, so a stale entry here can at worst let one more request through the configuration
// check for at most the TTL; the issuer still refuses a document it cannot sign.
import type { CertificateMetadataView, CompaniesPort, CreateSideCertificatesPort, IssuingCompany } from '@talao/issuance/create';

export const DEFAULT_ISSUER_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/** Found values are kept for `ttlMs`; absent ones are not (a company just created is seen at once). */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<T | null>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return Promise.resolve(hit.value);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const startedIn = this.generation;
    const read = load().finally(() => {
      if (this.pending.get(key) === read) this.pending.delete(key);
    });
    this.pending.set(key, read);
    return read.then((value) => {
      // A change signalled while the read ran must not be undone by caching an answer that may predate it.
      if (value !== null && startedIn === this.generation) {
        if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
      }
      return value;
    });
  }

  clear(): void {
    this.entries.clear();
    this.pending.clear();
    this.generation++;
  }
}

export interface IssuerSnapshots {
  companies: CompaniesPort;
  certificates: CreateSideCertificatesPort;
  forgetAll(): void;
}

export function cachedIssuerSnapshots(companies: CompaniesPort, certificates: CreateSideCertificatesPort, ttlMs: number): IssuerSnapshots {
  const companyCache = new TtlCache<IssuingCompany>(ttlMs);
  const certificateCache = new TtlCache<{ metadata: CertificateMetadataView }>(ttlMs);
  return {
    companies: { findById: (id) => companyCache.get(id, () => companies.findById(id)) },
    certificates: {
      findActive: (companyId) =>
        certificateCache.get(companyId, async () => {
          const active = await certificates.findActive(companyId);
          return active ? { metadata: { ...active.metadata } } : null;
        }),
    },
    forgetAll: () => {
      companyCache.clear();
      certificateCache.clear();
    },
  };
}
