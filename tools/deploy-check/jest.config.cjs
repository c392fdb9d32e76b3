module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'deploy-check',
  rootDir: __dirname,
  // Type-checking the manifests against the kubernetes-models interfaces takes a few seconds on a busy machine.
  testTimeout: 60_000,
};
