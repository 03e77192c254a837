// oidc-provider's storage on PostgreSQL (table oauth_records): one row per (model, id). The id column holds the
// SHA-256 of the provider's id and the payload is stored without its `jti`, because for authorization codes, access
// and refresh tokens that id is the bearer secret: a read of the table yields no usable token. Sessions keep theirs
// (the provider finds a session by uid and must save it under the same id); a session alone is worth nothing here,
// because every authorization asks for the company API key again (consent-page.ts).
import { createHash } from 'node:crypto';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { Prisma, PrismaClient } from '@talao/persistence';

/** A UTF-16 surrogate without its pair: in a `u` regexp a string is read by code point, so only those are Cs. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;
/** What jsonb refuses in a string: NUL, or an unpaired surrogate. */
const unstorable = (text: string): boolean => text.includes('\u0000') || UNPAIRED_SURROGATE.test(text);

/** True when a string anywhere in `value` (keys included) holds what jsonb refuses. */
function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return unstorable(value);
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => unstorable(key) || holdsUnstorable(item));
  return false;
}

const hashed = (id: string): string => createHash('sha256').update(id).digest('base64url');

/** `<company_id>:<api_key_id>`, the account id this server gives a person who proved an API key. */
const ACCOUNT = /^([0-9a-f-]{36}):[0-9a-f-]{36}$/;

function companyOf(payload: AdapterPayload): string | null {
  return ACCOUNT.exec(payload.accountId ?? '')?.[1] ?? null;
}

export function prismaAdapter(prisma: PrismaClient): new (model: string) => Adapter {
  return class PrismaOAuthAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      // jsonb holds neither NUL nor a lone surrogate: a client registering such metadata (client_name "a\u0000b")
      // was a 500 from PostgreSQL; it is the client's metadata that is invalid.
      if (holdsUnstorable(payload)) {
        throw this.model === 'Client'
          ? new errors.InvalidClientMetadata('client metadata must not contain NUL characters or unpaired surrogates')
          : new errors.InvalidRequest('the request holds text that cannot be stored (NUL or an unpaired surrogate)');
      }
      const { jti: _jti, ...withoutId } = payload;
      const stored = this.model === 'Session' ? payload : withoutId;
      const data = {
        payload: stored as Prisma.InputJsonValue,
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        companyId: companyOf(payload),
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await prisma.oAuthRecord.upsert({
        where: { model_id: { model: this.model, id: hashed(id) } },
        create: { model: this.model, id: hashed(id), ...data },
        update: data,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const row = await prisma.oAuthRecord.findUnique({ where: { model_id: { model: this.model, id: hashed(id) } } });
      return this.live(row, id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await prisma.oAuthRecord.findFirst({ where: { model: this.model, uid } });
      // Sessions are the only model looked up by uid, and they keep their id in the payload (see above).
      return this.live(row, undefined);
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined; // the device flow is not enabled
    }

    async consume(id: string): Promise<void> {
      await prisma.oAuthRecord.updateMany({
        where: { model: this.model, id: hashed(id) },
        data: { consumedAt: new Date() },
      });
    }

    async destroy(id: string): Promise<void> {
      await prisma.oAuthRecord.deleteMany({ where: { model: this.model, id: hashed(id) } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await prisma.oAuthRecord.deleteMany({ where: { grantId } });
    }

    private live(
      row: { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null } | null,
      id: string | undefined,
    ): AdapterPayload | undefined {
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
      return {
        ...(row.payload as AdapterPayload),
        ...(id !== undefined && { jti: id }),
        ...(row.consumedAt && { consumed: Math.floor(row.consumedAt.getTime() / 1000) }),
      };
    }
  };
}

/** Deletes expired rows; the provider never reads them (find ignores them), this keeps the table small. */
export async function deleteExpiredOAuthRecords(prisma: PrismaClient): Promise<number> {
  const { count } = await prisma.oAuthRecord.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  return count;
}
