#!/usr/bin/env node
// A solc command-line stand-in for forge, backed by the `solc` npm package (solc-js), because forge cannot
// download native compilers on this network. It answers `--version` like solc and compiles
// `--standard-json` input from stdin to stdout; other flags (--allow-paths, --base-path, ...) are accepted
// and only used to resolve imports that the input does not already carry.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const solc = require('solc');

const args = process.argv.slice(2);

if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}

if (!args.includes('--standard-json')) {
  process.stderr.write('solc-shim: only --version and --standard-json are supported\n');
  process.exit(1);
}

// Directories that may hold an import the input omitted: --base-path, --include-path, the working directory.
const roots = [process.cwd()];
for (let i = 0; i < args.length; i += 1) {
  if ((args[i] === '--base-path' || args[i] === '--include-path') && args[i + 1]) roots.unshift(args[i + 1]);
}

function findImports(importPath) {
  for (const root of roots) {
    const file = path.resolve(root, importPath);
    if (fs.existsSync(file)) return { contents: fs.readFileSync(file, 'utf8') };
  }
  return { error: `File not found: ${importPath}` };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
});
process.stdin.on('end', () => {
  const output = solc.compile(input, { import: findImports });
  process.stdout.write(output);
});
