module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'devnet',
  rootDir: __dirname,
};
