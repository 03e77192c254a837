// Prisma CLI configuration (Prisma 7 reads no .env: DATABASE_URL comes from the environment).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'prisma/config';

// Prisma's CLI would download a native schema engine from the internet on first use. The project carries an offline
// stand-in built on @prisma/schema-engine-wasm (tools/prisma-schema-engine/README.md); `??=` keeps a real binary
// selectable by setting PRISMA_SCHEMA_ENGINE_BINARY yourself.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(new URL('./tools/prisma-schema-engine/schema-engine.mjs', import.meta.url));

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // Not env('DATABASE_URL'): env() throws when the variable is unset, and `prisma generate` (postinstall) needs no
  // database. The fallback is the local development database.
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/talao' },
});
