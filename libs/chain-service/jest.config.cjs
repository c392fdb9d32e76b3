module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'chain-service',
  rootDir: __dirname,
};
