// The apps `npm start` runs, one entry each, started in this order. Adding a worker is adding an entry here (and
// its Dockerfile, docker-compose.yml service and k8s/ manifests, which deployment-files.spec.ts checks).
//   name        the folder under apps/ and the log prefix
//   entry       the built entry point, relative to the repository root
//   ports       preferred TCP ports by role; a free port is taken instead when one is busy
//   env(ctx)    the app's environment from what the launcher resolved. ctx: databaseUrl, redisUrl, redisPrefix,
//               secrets, dataDir, ports (every app's, by name and role), testCa ({ certificate, privateKey }: PEM
//               file paths of the local test CA)
//   readiness(ctx)  the URL (and headers) answering 200 once the app is ready
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
      HOST: process.env.HOST ?? '127.0.0.1',
      PUBLIC_BASE_URL: `http://localhost:${ctx.ports.gateway.http}`,
    }),
    readiness: (ctx) => ({ url: `http://127.0.0.1:${ctx.ports.gateway.http}/readyz` }),
  },
];
