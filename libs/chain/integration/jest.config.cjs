// libs/chain on real chains: a project of its own, since the chains under test come from @dex/testing, which
// itself builds on @dex/chain.
module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'chain-integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
