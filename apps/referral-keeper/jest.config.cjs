module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'referral-keeper',
  rootDir: __dirname,
};
