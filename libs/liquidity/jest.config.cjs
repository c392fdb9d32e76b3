module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'liquidity',
  rootDir: __dirname,
};
