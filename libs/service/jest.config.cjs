module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'service',
  rootDir: __dirname,
};
