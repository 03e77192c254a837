// Operator CLI: `npm run admin -- <command> [flags]`. Same use cases as /admin/v1, straight to the database (no
// gateway or admin token needed: whoever runs it already holds DATABASE_URL). Prints JSON on stdout; failures print
// `{ "error": kind, "detail": … }` on stderr with exit code 2 (refused), 64 (usage), 78 (configuration) or 1.
import { CompanyAdminError } from '@talao/company-admin';
import { ConfigError, loadAdminCliConfig } from '@talao/config';
import { ApiKeysRepository, CertificateVault, CertificatesRepository, CompaniesRepository, createPrismaClient } from '@talao/persistence';
import { parseArguments, UsageError } from './admin-cli/arguments.js';
import { runCommand, USAGE } from './admin-cli/commands.js';
import { readCertificateTrustBundle } from './certificate-trust-bundle.js';

function fail(code: number, error: string, detail: unknown): never {
  process.stderr.write(`${JSON.stringify({ error, detail }, null, 2)}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let args;
  try {
    args = parseArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) fail(64, 'usage', `${error.message}\n\n${USAGE}`);
    throw error;
  }
  let config;
  try {
    config = loadAdminCliConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(78, 'configuration', error.problems);
    throw error;
  }
  const prisma = createPrismaClient(config.databaseUrl);
  try {
    const ports = {
      companies: new CompaniesRepository(prisma),
      apiKeys: new ApiKeysRepository(prisma),
      certificates: new CertificatesRepository(prisma, new CertificateVault(config.certificateEncryptionKey)),
      certificateTrustAnchorsPem: readCertificateTrustBundle(config.certificateTrustBundleFile),
    };
    const result = await runCommand(ports, args, process.env);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (error) {
    if (error instanceof UsageError) fail(64, 'usage', error.message);
    if (error instanceof ConfigError) fail(78, 'configuration', error.problems);
    if (error instanceof CompanyAdminError) {
      fail(2, error.kind, error.problems.length > 0 ? { message: error.message, errors: error.problems } : error.message);
    }
    throw error;
  } finally {
    await prisma.$disconnect();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Unexpected: the message only (stack traces of a CLI help nobody reading JSON); set DEBUG for the stack.
  fail(1, 'internal', process.env.DEBUG && error instanceof Error ? error.stack : error instanceof Error ? error.message : String(error));
});
