module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'fee-math',
  rootDir: __dirname,
};
