// The apps `npm start` runs, one entry each, started in this order (an entry whose folder is not in this checkout is
// skipped, so a line can land before its app). Adding a worker is adding an entry here (and
// its Dockerfile, docker-compose.yml service and k8s/ manifests, which deployment-files.spec.ts checks).
//   name        the folder under apps/ and the log prefix
//   entry       the built entry point, relative to the repository root
//   ports       preferred TCP ports by role; a free port is taken instead when one is busy
//   env(ctx)    the app's environment from what the launcher resolved. ctx: databaseUrl, redisUrl, redisPrefix,
//               secrets, dataDir, ports (every app's, by name and role), testCa ({ certificate, privateKey }: PEM
//               file paths of the local test CA)
//   readiness(ctx)  the URL (and headers) answering 200 once the app is ready
/** The authorizers both the gateway (consults) and the issuer (transmissions) reach: the simulator in homologation,
 * trusting the local test CA, and the infRespTec of a fictitious software house for local runs. */
function authorizerEnv(ctx) {
  return {
    ...(ctx.ports['authorizer-sim'] && { AUTHORIZER_BASE_URL_HOMOLOGATION: `https://127.0.0.1:${ctx.ports['authorizer-sim'].https}` }),
    ...(ctx.testCa && { AUTHORIZER_CA_BUNDLE_FILE: ctx.testCa.certificate }),
    TECHNICAL_RESPONSIBLE_CNPJ: process.env.TECHNICAL_RESPONSIBLE_CNPJ ?? '30294817000180',
    TECHNICAL_RESPONSIBLE_CONTACT: process.env.TECHNICAL_RESPONSIBLE_CONTACT ?? 'Talao local run',
    TECHNICAL_RESPONSIBLE_EMAIL: process.env.TECHNICAL_RESPONSIBLE_EMAIL ?? 'dev@talao.example',
    TECHNICAL_RESPONSIBLE_PHONE: process.env.TECHNICAL_RESPONSIBLE_PHONE ?? '1130000000',
  };
}

/** @type {Array<{ name: string, entry: string, ports: Record<string, number>, env: (ctx: any) => Record<string, string>,
 *   readiness: (ctx: any) => { url: string, headers?: Record<string, string> } }>} */
export const APPS = [
  {
    // Never deployed to production: it stands in for SEFAZ and the NFS-e national environment, trusting the local
    // test CA that also issues the demo company's certificate.
    name: 'authorizer-sim',
    entry: 'apps/authorizer-sim/dist/main.js',
    ports: { https: 8443, control: 8444 },
    env: (ctx) => ({
      SIM_PORT: String(ctx.ports['authorizer-sim'].https),
      SIM_CONTROL_PORT: String(ctx.ports['authorizer-sim'].control),
      SIM_HOST: '127.0.0.1',
      SIM_CONTROL_HOST: '127.0.0.1',
      SIM_HOSTNAMES: 'localhost,127.0.0.1',
      SIM_CONTROL_TOKEN: ctx.secrets.simulatorControlToken,
      SIM_DATA_DIR: `${ctx.dataDir}/authorizer-sim`,
      ...(ctx.testCa && { SIM_CA_CERTIFICATE_PEM: ctx.testCa.certificatePem, SIM_CA_PRIVATE_KEY_PEM: ctx.testCa.privateKeyPem }),
    }),
    readiness: (ctx) => ({
      url: `http://127.0.0.1:${ctx.ports['authorizer-sim'].control}/_control/health`,
      headers: { authorization: `Bearer ${ctx.secrets.simulatorControlToken}` },
    }),
  },
  {
    name: 'gateway',
    entry: 'apps/gateway/dist/main.js',
    ports: { http: 3000 },
    env: (ctx) => ({
      PORT: String(ctx.ports.gateway.http),
      DATABASE_URL: ctx.databaseUrl,
      REDIS_URL: ctx.redisUrl,
      REDIS_PREFIX: ctx.redisPrefix,
      ADMIN_TOKEN: ctx.secrets.adminToken,
      CERTIFICATE_ENCRYPTION_KEY: ctx.secrets.certificateEncryptionKey,
      // Local runs listen on the loopback interface only: the admin token is printed on the terminal.
      // (GATEWAY_HOST=0.0.0.0 to reach it from other machines; not HOST, which some shells set to the machine name.)
      HOST: process.env.GATEWAY_HOST ?? '127.0.0.1',
      PUBLIC_BASE_URL: `http://localhost:${ctx.ports.gateway.http}`,
      // The gateway consults the authorizer (GET /invoices/{access_key}) and plans documents at creation.
      ...authorizerEnv(ctx),
    }),
    readiness: (ctx) => ({ url: `http://127.0.0.1:${ctx.ports.gateway.http}/readyz` }),
  },
  {
    // Consumes `issue` jobs and transmits to the simulator (homologation), trusting the local test CA.
    name: 'issuer',
    entry: 'apps/issuer/dist/main.js',
    ports: { health: 3100 },
    env: (ctx) => ({
      ISSUER_HEALTH_PORT: String(ctx.ports.issuer.health),
      ISSUER_HEALTH_HOST: '127.0.0.1',
      DATABASE_URL: ctx.databaseUrl,
      REDIS_URL: ctx.redisUrl,
      REDIS_PREFIX: ctx.redisPrefix,
      CERTIFICATE_ENCRYPTION_KEY: ctx.secrets.certificateEncryptionKey,
      ...authorizerEnv(ctx),
    }),
    readiness: (ctx) => ({ url: `http://127.0.0.1:${ctx.ports.issuer.health}/readyz` }),
  },
];
