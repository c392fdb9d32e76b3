module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'devnet-kit',
  rootDir: __dirname,
};
