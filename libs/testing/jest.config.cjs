module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'testing',
  rootDir: __dirname,
  globalSetup: '<rootDir>/test/global-setup.cjs',
};
