// Who a person is at this authorization server: the company API key they proved on the consent page. The account id
// is `<company_id>:<api_key_id>`, so a token names its tenant without a lookup, and the key's revocation (or a
// change of context) ends the account: refresh fails and the gateway refuses the access tokens still in flight.

export interface Account {
  readonly companyId: string;
  readonly apiKeyId: string;
}

/** A key as the consent page checks it (persistence resolves it from the key text the person typed). */
export interface ProvenApiKey {
  readonly id: string;
  readonly companyId: string;
  readonly environment: 'homologation' | 'production';
  readonly context: 'sdk' | 'api';
  readonly revokedAt: Date | null;
}

/** The ports the server needs about API keys (the gateway implements them over its repositories). */
export interface AccountKeys {
  /** The key behind the text a person typed, or null (unknown or malformed). */
  resolveKeyText(text: string): Promise<ProvenApiKey | null>;
  /** True while the key exists, belongs to the company, is not revoked and has context api. */
  isUsable(account: Account): Promise<boolean>;
  environmentOf(account: Account): Promise<'homologation' | 'production'>;
}

const ACCOUNT_ID = /^([0-9a-f-]{36}):([0-9a-f-]{36})$/;

export function accountIdOf(account: Account): string {
  return `${account.companyId}:${account.apiKeyId}`;
}

export function parseAccountId(id: string): Account | undefined {
  const match = ACCOUNT_ID.exec(id);
  return match ? { companyId: match[1]!, apiKeyId: match[2]! } : undefined;
}
