import { readFile } from 'node:fs/promises';
import {
  createApiKey,
  createCompany,
  getCompany,
  listApiKeys,
  presentApiKey,
  presentCertificate,
  presentCompany,
  revokeApiKey,
  setCertificate,
  updateCompany,
  type CompanyAdminPorts,
} from '@talao/company-admin';
import { companyBodyFromFlags, COMPANY_FLAG_NAMES, UsageError, type ParsedArguments } from './arguments.js';

export const USAGE = `Usage: npm run admin -- <command> [flags]   (prints JSON)

  create-company   --json '<company JSON>' | --file company.json, and/or flags:
                   ${COMPANY_FLAG_NAMES.map((f) => `--${f}`).join(' ')}
  update-company   --company <id>, and the fields to change as for create-company (profile fields only:
                   names, regime, registrations, contact, --nfse-service-code, --approximate-taxes federal,state,municipal)
  get-company      --company <id>
  set-certificate  --company <id> --file cert.pfx [--password <p>]   (or TALAO_CERTIFICATE_PASSWORD)
  create-api-key   --company <id> --name <name> --environment homologation|production [--context sdk|api]
  list-api-keys    --company <id>
  revoke-api-key   --id <api key id>   (or the id as the only argument)

Environment: DATABASE_URL, CERTIFICATE_ENCRYPTION_KEY (as for the gateway).`;

function required(args: ParsedArguments, flag: string): string {
  const value = args.flags[flag];
  if (value === undefined || value === '') throw new UsageError(`${args.command} needs --${flag}`);
  return value;
}

function only(args: ParsedArguments, allowed: readonly string[]): void {
  const unknown = Object.keys(args.flags).filter((f) => !allowed.includes(f));
  if (unknown.length > 0) throw new UsageError(`${args.command} does not know ${unknown.map((f) => `--${f}`).join(', ')}`);
  if (args.positionals.length > 0 && args.command !== 'revoke-api-key') throw new UsageError(`unexpected argument ${args.positionals[0]}`);
}

async function companyBase(args: ParsedArguments): Promise<Record<string, unknown>> {
  const text = args.flags.json ?? (args.flags.file !== undefined ? await readFile(args.flags.file, 'utf8') : undefined);
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch {
    throw new UsageError('the company JSON (--json / --file) must be a JSON object');
  }
}

/** Runs one command over the same use cases as the admin API; the result is what the command prints. */
export async function runCommand(ports: CompanyAdminPorts, args: ParsedArguments, env: NodeJS.ProcessEnv): Promise<unknown> {
  switch (args.command) {
    case 'create-company': {
      const body = companyBodyFromFlags(await companyBase(args), args.flags);
      return presentCompany(await createCompany(ports, body));
    }
    case 'update-company': {
      const body = companyBodyFromFlags(await companyBase(args), args.flags, args.command);
      return presentCompany(await updateCompany(ports, required(args, 'company'), body));
    }
    case 'get-company':
      only(args, ['company']);
      return presentCompany(await getCompany(ports, required(args, 'company')));
    case 'set-certificate': {
      only(args, ['company', 'file', 'password']);
      const password = args.flags.password ?? env.TALAO_CERTIFICATE_PASSWORD;
      if (password === undefined) throw new UsageError('set-certificate needs --password (or TALAO_CERTIFICATE_PASSWORD)');
      const pkcs12 = await readFile(required(args, 'file'));
      return presentCertificate(
        await setCertificate(ports, required(args, 'company'), { pkcs12_base64: pkcs12.toString('base64'), password }),
      );
    }
    case 'create-api-key': {
      only(args, ['company', 'name', 'environment', 'context']);
      const { apiKey, key } = await createApiKey(ports, required(args, 'company'), {
        name: required(args, 'name'),
        environment: required(args, 'environment'),
        ...(args.flags.context !== undefined && { context: args.flags.context }),
      });
      return { ...presentApiKey(apiKey), key };
    }
    case 'list-api-keys':
      only(args, ['company']);
      return (await listApiKeys(ports, required(args, 'company'))).map(presentApiKey);
    case 'revoke-api-key': {
      only(args, ['id']);
      const id = args.flags.id ?? args.positionals[0];
      if (!id || args.positionals.length > (args.flags.id ? 0 : 1)) throw new UsageError('revoke-api-key needs one --id');
      await revokeApiKey(ports, id);
      return { id, revoked: true };
    }
    default:
      throw new UsageError(`unknown command ${args.command}`);
  }
}
