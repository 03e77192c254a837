// The block printed once everything is up: where things are, the secrets needed to use them, a curl to try.
import path from 'node:path';

const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (text) => (useColour ? `\x1b[1m${text}\x1b[0m` : text);

export function printSummary({ gatewayUrl, ports, secrets, demo, postgres, redis, dataDir, localEnv, readyAfter }) {
  const fromEnv = (name) => (secrets.origin[name] === 'environment' ? ' (from the environment)' : ` (kept in ${dataDir}/secrets.json)`);
  const lines = [
    '',
    bold(`Talão is running — ready in ${readyAfter}`),
    '',
    `  API           ${gatewayUrl}/api/v1`,
    `  API docs      ${gatewayUrl}/api/v1/docs`,
    `  OpenAPI JSON  ${gatewayUrl}/api/v1/openapi.json`,
    `  Admin API     ${gatewayUrl}/admin/v1`,
    `  Health        ${gatewayUrl}/healthz   ${gatewayUrl}/readyz`,
    ...(ports['authorizer-sim']
      ? [
          `  Simulator     https://127.0.0.1:${ports['authorizer-sim'].https} (SEFAZ / NFS-e, mTLS)   control http://127.0.0.1:${ports['authorizer-sim'].control}/_control`,
        ]
      : []),
    ...(ports.issuer ? [`  Issuer        health http://127.0.0.1:${ports.issuer.health}/readyz`] : []),
    ...(ports.mcp
      ? [
          `  MCP           http://localhost:${ports.mcp.http}/mcp (streamable HTTP, Authorization: Bearer <API key>, or OAuth: http://localhost:${ports.gateway.http}/oauth)`,
        ]
      : []),
    '',
    `  PostgreSQL    ${redactPassword(postgres.url)}  [${postgres.source}]`,
    `  Redis         ${redactPassword(redis.url)}  [${redis.source}]`,
    '',
    `  ADMIN_TOKEN   ${secrets.adminToken}${fromEnv('adminToken')}`,
    ...(demo.error
      ? [`  Demo company  not prepared: ${demo.error}`, '']
      : [
          `  Demo company  ${demo.companyId}${demo.certificate === 'skipped' ? ' (no certificate: libs/icp-test-ca missing)' : ' (test A1 certificate installed)'}`,
          `  Demo API key  ${demo.apiKey}  (homologation, context api; a new one each start, the previous one revoked)`,
          '',
          '  Try it:',
          `    curl -H "Authorization: Bearer ${demo.apiKey}" ${gatewayUrl}/api/v1/me`,
          '',
        ]),
    `  Environment   ${localEnv}  (for other commands: set -a; . ${path.relative(process.cwd(), localEnv)}; set +a; npm run admin -- …)`,
    '',
    '  Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function redactPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
