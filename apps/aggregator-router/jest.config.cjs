module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'aggregator-router',
  rootDir: __dirname,
};
