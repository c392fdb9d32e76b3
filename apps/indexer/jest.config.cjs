module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'indexer',
  rootDir: __dirname,
  globalSetup: '<rootDir>/test/global-setup.cjs',
};
