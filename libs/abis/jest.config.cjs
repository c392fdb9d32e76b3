module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'abis',
  rootDir: __dirname,
};
