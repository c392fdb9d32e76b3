module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'launchpad-service',
  rootDir: __dirname,
};
