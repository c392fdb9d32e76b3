module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'amm-quoter',
  rootDir: __dirname,
};
