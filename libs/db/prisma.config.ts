// Prisma CLI configuration (Prisma 7). The CLI does not look in libs/db by itself: run it from the
// workspace root with `--config libs/db/prisma.config.ts` (paths below are relative to this file), e.g.
//   PRISMA_SCHEMA_ENGINE_BINARY=/bin/false npx prisma generate --config libs/db/prisma.config.ts
// or simply `node tools/db/generate.mjs`. Migrations are applied by `node tools/db/migrate.mjs`;
// `prisma migrate deploy --config libs/db/prisma.config.ts` is equivalent where the schema engine is available.
import { defineConfig } from 'prisma/config';
import { DEFAULT_DATABASE_URL } from './src/database-url';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL },
});
