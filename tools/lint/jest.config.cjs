// ESLint loads eslint.config.mjs with import(), which jest runs only under --experimental-vm-modules (the
// project's test target passes it to node).
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'lint-config',
  rootDir: __dirname,
  testTimeout: 60_000,
};
