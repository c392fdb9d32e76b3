#!/usr/bin/env node
// Generates the Prisma client (libs/db/src/generated/prisma, not committed) from libs/db/prisma/schema.prisma.
// A no-op when the schema, the Prisma version and this script are unchanged since the last run; `--force`
// regenerates anyway. `prisma generate` is wasm-only, so the native schema engine (which the CLI would try
// to download) is switched off with PRISMA_SCHEMA_ENGINE_BINARY=/bin/false.
//   node tools/db/generate.mjs [--force]
import '../runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const lib = join(root, 'libs/db');
const config = join(lib, 'prisma.config.ts');
const schema = join(lib, 'prisma/schema.prisma');
const output = join(lib, 'src/generated/prisma');
const stampFile = join(lib, 'src/generated/.generate-stamp');

const require = createRequire(import.meta.url);
const prismaPackage = require.resolve('prisma/package.json');
const prismaVersion = JSON.parse(readFileSync(prismaPackage, 'utf8')).version;
const prismaCli = join(dirname(prismaPackage), 'build/index.js');

const stamp = createHash('sha256')
  .update(prismaVersion)
  .update(readFileSync(schema))
  .update(readFileSync(config))
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest('hex');

const upToDate =
  !process.argv.includes('--force') &&
  existsSync(join(output, 'client.ts')) &&
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8').trim() === stamp;

if (upToDate) {
  console.log('prisma client is up to date (libs/db/src/generated/prisma)');
} else {
  const run = spawnSync(process.execPath, [prismaCli, 'generate', '--config', config], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false',
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });
  if (run.status !== 0) {
    console.error(`prisma generate failed (exit ${run.status ?? run.signal})`);
    process.exit(1);
  }
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, stamp + '\n');
}
