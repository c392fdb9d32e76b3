module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  // A suite whose setup fails part-way may leave a chain, NATS server or app process it never got to hand
  // back; the test helpers kill those when the process exits, so end the run instead of waiting on them.
  forceExit: true,
};
