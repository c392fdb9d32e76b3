// The indexer and the test database helpers load the generated Prisma client of @dex/db: make sure it exists (no-op when up to date).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async () => {
  execFileSync(process.execPath, [path.join(__dirname, '../../../tools/db/generate.mjs')], { encoding: 'utf8' });
};
