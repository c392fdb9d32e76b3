#!/usr/bin/env node
// Prints the Node runtime and fails unless it is the workspace's pinned one (tools/runtime/pinned.cjs): the first
// step of `npm test` and `npm start`, so that neither can run on another Node without saying so.
//   node tools/runtime/check.mjs        (through npm: `npm run runtime`)
import runtime from './pinned.cjs';

const event = process.env.npm_lifecycle_event;
const what = event && event !== 'runtime' ? `npm ${event === 'test' || event === 'start' ? event : `run ${event}`}` : 'this command';
const message = runtime.problem(what);
if (message) {
  console.error(`✗ ${message}`);
  process.exit(1);
}
console.log(`runtime: node ${process.version} (pinned)`);
