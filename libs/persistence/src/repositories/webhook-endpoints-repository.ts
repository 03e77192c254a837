// Registered webhook endpoints (issue 17), always read and written within one company and environment (the API key's):
// an endpoint of another company or environment answers exactly like one that does not exist.
import type { CertificateVault } from '../certificate-vault.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { EnvironmentName } from './issuance-records.js';

/** Active endpoints per company and environment: each one is a fan-out of every event, so they are bounded. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

export interface WebhookEndpointRecord {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  url: string;
  /** Empty: every event. */
  events: string[];
  createdAt: Date;
}

export interface WebhookScope {
  companyId: string;
  environment: EnvironmentName;
}

export interface NewWebhookEndpoint extends WebhookScope {
  url: string;
  secret: string;
  events: readonly string[];
}

export class WebhookEndpointLimitError extends Error {
  override readonly name = 'WebhookEndpointLimitError';
  constructor() {
    super(`at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per company and environment; delete one first`);
  }
}

const PUBLIC_FIELDS = { id: true, companyId: true, environment: true, url: true, events: true, createdAt: true } as const;

/** Open secrets kept per process at most (all are dropped when full: a refill costs one decryption each). */
const OPEN_SECRETS_KEPT = 1024;

export class WebhookEndpointsRepository {
  private readonly openSecrets = new Map<string, string>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly vault: CertificateVault,
  ) {}

  /** The secret is sealed before it reaches the database and is never read back by the API. */
  async register(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRecord> {
    const { companyId, environment } = endpoint;
    return this.prisma.$transaction(async (tx) => {
      // Serialises registrations of one company, so two concurrent ones cannot both pass the count.
      await tx.$queryRaw`SELECT id FROM companies WHERE id = ${companyId}::uuid FOR UPDATE`;
      const active = await tx.webhookEndpoint.count({ where: { companyId, environment, deletedAt: null } });
      if (active >= MAX_WEBHOOK_ENDPOINTS) throw new WebhookEndpointLimitError();
      const row = await tx.webhookEndpoint.create({
        data: {
          companyId,
          environment,
          url: endpoint.url,
          secretEncrypted: new Uint8Array(this.vault.encrypt(Buffer.from(endpoint.secret, 'utf8'))),
          events: [...endpoint.events],
        },
        select: PUBLIC_FIELDS,
      });
      return row as WebhookEndpointRecord;
    });
  }

  async list(scope: WebhookScope): Promise<WebhookEndpointRecord[]> {
    const rows = await this.prisma.webhookEndpoint.findMany({
      where: { ...scope, deletedAt: null },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: PUBLIC_FIELDS,
    });
    return rows as WebhookEndpointRecord[];
  }

  /**
   * Deletes the endpoint: no new deliveries, and those still waiting are cancelled. The row stays (deleted_at) so its
   * deliveries remain listed. False when there is no such active endpoint in the scope.
   */
  async delete(scope: WebhookScope, id: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.webhookEndpoint.updateMany({ where: { id, ...scope, deletedAt: null }, data: { deletedAt: new Date() } });
      if (count === 0) return false;
      await tx.webhookDelivery.updateMany({
        where: { endpointId: id, status: 'pending' },
        data: { status: 'cancelled', nextAttemptAt: null, updatedAt: new Date() },
      });
      return true;
    });
  }

  /**
   * The endpoint's secret in clear, for signing (the dispatcher only). Every attempt opens one, and a decryption (a
   * new key object and cipher each time) was a twentieth of the dispatcher's CPU: the few endpoints' secrets stay
   * open in this process's memory, keyed by their sealed bytes (a new IV per sealing, so a rotated secret is a new key).
   */
  openSecret(sealed: Uint8Array): string {
    const key = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength).toString('base64');
    let secret = this.openSecrets.get(key);
    if (secret === undefined) {
      if (this.openSecrets.size >= OPEN_SECRETS_KEPT) this.openSecrets.clear();
      secret = this.vault.decrypt(Buffer.from(sealed)).toString('utf8');
      this.openSecrets.set(key, secret);
    }
    return secret;
  }
}
