module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'chain',
  rootDir: __dirname,
};
