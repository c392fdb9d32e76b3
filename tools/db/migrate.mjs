#!/usr/bin/env node
// Applies the database migrations (libs/db/prisma/migrations) to DATABASE_URL, creating the database if
// needed. Same code as `migrate()` from @dex/db.
//   node tools/db/migrate.mjs [--url postgresql://...] [--dir <migrations folder>]
import { fileURLToPath } from 'node:url';
import { loadTs } from './load-ts.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { migrate, DEFAULT_DATABASE_URL, redactUrl } = loadTs(`${root}libs/db/src/index-migrate.ts`);

function option(name) {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const url = option('--url') ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
try {
  const result = await migrate(url, {
    migrationsDir: option('--dir'),
    log: (line) => console.log(`migrate: ${line}`),
  });
  console.log(
    `migrate: ${redactUrl(url)} up to date (${result.applied.length} applied now, ` +
      `${result.alreadyApplied.length} already applied)`,
  );
} catch (error) {
  console.error(`migrate: ${error.message}`);
  process.exit(1);
}
