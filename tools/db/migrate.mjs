#!/usr/bin/env node
// Applies the database migrations (libs/db/prisma/migrations) to DATABASE_URL, creating the database if
// needed. Same code as `migrate()` from @dex/db (libs/db/src/migrate-cli.ts).
//   node tools/db/migrate.mjs [--url postgresql://...] [--dir <migrations folder>]
import '../runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { fileURLToPath } from 'node:url';
import { loadTs } from './load-ts.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { runMigrateCli } = loadTs(`${root}libs/db/src/migrate-cli.ts`);
process.exit(await runMigrateCli(process.argv, process.env));
