// Makes sure the generated Prisma client exists before the tests import it (a no-op when up to date).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async () => {
  execFileSync(process.execPath, [path.join(__dirname, '../../../tools/db/generate.mjs')], { encoding: 'utf8' });
};
