#!/usr/bin/env node
// Deploys our contracts onto a chain from a config file: `npm run deploy -- --config <file> --rpc-url <url>
// [--out deployments/<chainId>.json] [--dry-run] [--big-blocks]`, DEPLOYER_PRIVATE_KEY in the environment. The
// logic is libs/deploy (runDeployCli); this script builds it and, for a dry run, forks the chain with anvil.
import '../runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const { runDeployCli } = require(join(root, 'dist/libs/deploy/src'));
const { startAnvil } = require(join(root, 'dist/libs/devnet-kit/src'));

const fork = async (rpcUrl, chainId) => {
  const node = await startAnvil({ chainId, forkUrl: rpcUrl, accounts: 0 });
  return { rpcUrl: node.rpcUrl, stop: () => node.stop() };
};
const code = await runDeployCli(process.argv.slice(2), process.env, { out: (l) => console.log(l), err: (l) => console.error(l), fork });
process.exit(code);
