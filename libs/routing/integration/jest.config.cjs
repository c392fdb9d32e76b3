// The routing engine's concentrated-liquidity maths against the real pools on a private anvil chain: a project
// of its own, since the chain and the deployed bytecode come from the devnet kit and npm artifacts.
module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'routing-integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
