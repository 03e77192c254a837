import { z } from 'zod';
import { UUID, getCompany } from './create-company.js';
import { conflictError, notFoundError, validationError } from './errors.js';
import { labelText, zodProblems } from './company-input.js';
import type { ApiKeyRecord, CompanyAdminPorts } from './ports.js';

export const createApiKeyInputSchema = z.strictObject({
  name: labelText(100),
  environment: z.enum(['homologation', 'production']),
  // `sdk` keys belong to client SDKs; only `api` keys call the REST API (the MCP server passes the caller's key to it).
  context: z.enum(['sdk', 'api']).default('sdk'),
});

export type CreateApiKeyInput = z.input<typeof createApiKeyInputSchema>;

export interface CreatedApiKey {
  readonly apiKey: ApiKeyRecord;
  /** The full key; it exists only here — the database keeps its hash. */
  readonly key: string;
}

/** The repository's "4th active key" error, recognised by name so this lib does not depend on its class identity. */
function isActiveKeyLimit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ActiveKeyLimitError';
}

export async function createApiKey(ports: CompanyAdminPorts, companyId: string, input: unknown): Promise<CreatedApiKey> {
  const company = await getCompany(ports, companyId);
  const parsed = createApiKeyInputSchema.safeParse(input);
  if (!parsed.success) throw validationError('The API key request is invalid', zodProblems(parsed.error));
  try {
    const { apiKey, secret } = await ports.apiKeys.create({ companyId: company.id, ...parsed.data });
    return { apiKey, key: secret };
  } catch (error) {
    if (error instanceof Error && error.name === 'CompanyNotFoundError') throw notFoundError(`Company ${companyId} not found`);
    if (isActiveKeyLimit(error)) {
      throw conflictError('The company already has 3 active API keys; revoke one before creating another');
    }
    throw error;
  }
}

export async function revokeApiKey(ports: CompanyAdminPorts, apiKeyId: string): Promise<void> {
  const revoked = UUID.test(apiKeyId) && (await ports.apiKeys.revoke(apiKeyId));
  if (!revoked) throw notFoundError(`API key ${apiKeyId} not found`);
}

export async function listApiKeys(ports: CompanyAdminPorts, companyId: string): Promise<ApiKeyRecord[]> {
  const company = await getCompany(ports, companyId);
  return ports.apiKeys.listForCompany(company.id);
}
