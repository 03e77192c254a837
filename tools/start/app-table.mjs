// The apps `npm start` runs, one line each. Adding a worker is adding a line here (and its service in
// docker-compose.yml and k8s/, which tools/start/deployment-files.spec.ts checks).
//   name       the folder under apps/ and the log prefix
//   entry      the built entry point, relative to the repository root
//   port       preferred HTTP port (health endpoints, and the API for the gateway); a free one is taken when busy
//   env(ctx)   the app's environment, from what the launcher resolved (ctx: databaseUrl, redisUrl, redisPrefix,
//              secrets, dataDir, ports of every app by name, testCa: { certificate, privateKey } PEM file paths)
/** @type {Array<{ name: string, entry: string, port: number, env: (ctx: any) => Record<string, string> }>} */
export const APPS = [
  {
    name: 'gateway',
    entry: 'apps/gateway/dist/main.js',
    port: 3000,
    env: (ctx) => ({
      DATABASE_URL: ctx.databaseUrl,
      REDIS_URL: ctx.redisUrl,
      REDIS_PREFIX: ctx.redisPrefix,
      ADMIN_TOKEN: ctx.secrets.adminToken,
      CERTIFICATE_ENCRYPTION_KEY: ctx.secrets.certificateEncryptionKey,
      // Local runs listen on the loopback interface only: the admin token is printed on the terminal.
      HOST: process.env.HOST ?? '127.0.0.1',
      PUBLIC_BASE_URL: `http://localhost:${ctx.ports.gateway}`,
    }),
  },
];
