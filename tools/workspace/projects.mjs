// The list of workspace projects and their tags (layer `type:*`, product area `scope:*`, and extra tags; the
// rules over them are in eslint.config.mjs); `node tools/workspace/projects.mjs --write` lays out project.json,
// tsconfig.json and jest.config.cjs for each one that lacks them.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const projects = [
  { name: 'gateway', root: 'apps/gateway', type: 'app', scope: 'gateway' },
  { name: 'aggregator-router', root: 'apps/aggregator-router', type: 'app', scope: 'aggregator' },
  { name: 'amm-quoter', root: 'apps/amm-quoter', type: 'app', scope: 'core' },
  { name: 'launchpad-service', root: 'apps/launchpad-service', type: 'app', scope: 'launchpad' },
  { name: 'indexer', root: 'apps/indexer', type: 'app', scope: 'indexer' },
  { name: 'referral-keeper', root: 'apps/referral-keeper', type: 'app', scope: 'core' },
  { name: 'devnet', root: 'apps/devnet', type: 'app', scope: 'devnet' },
  // End-to-end tests of the built apps as processes, on real NATS, Postgres and chains.
  { name: 'e2e', root: 'apps/e2e', type: 'e2e', scope: 'e2e' },
  // The gateway imports only the libs tagged consumer:gateway, and those import only each other: the service kit
  // reaches no chain and no database.
  { name: 'service', root: 'libs/service', type: 'platform', scope: 'shared', tags: ['consumer:gateway'] },
  // The service kit of the services that reach chains and the database: RPC and Postgres readiness, chain settings,
  // the database module.
  { name: 'chain-service', root: 'libs/chain-service', type: 'platform', scope: 'shared' },
  { name: 'messages', root: 'libs/messages', type: 'contract', scope: 'shared', tags: ['consumer:gateway'] },
  { name: 'db', root: 'libs/db', type: 'data-access', scope: 'shared' },
  { name: 'chain', root: 'libs/chain', type: 'data-access', scope: 'shared' },
  // Production code of the devnet app alone may import it; tests and libs/testing may too.
  { name: 'devnet-kit', root: 'libs/devnet-kit', type: 'kit', scope: 'devnet' },
  // The deploy tool (npm run deploy): our contracts onto a chain we did not build, from a config file.
  { name: 'deploy', root: 'libs/deploy', type: 'kit', scope: 'deploy' },
  { name: 'abis', root: 'libs/abis', type: 'contract', scope: 'shared' },
  { name: 'routing', root: 'libs/routing', type: 'domain', scope: 'shared' },
  { name: 'fee-math', root: 'libs/fee-math', type: 'domain', scope: 'shared' },
  // The liquidity state reduced from chain facts, and its routing view: the aggregator's alone.
  { name: 'liquidity', root: 'libs/liquidity', type: 'domain', scope: 'aggregator' },
  { name: 'testing', root: 'libs/testing', type: 'testing', scope: 'testing' },
  // The typed client of the REST API (HTTP I/O over the global fetch), derived from the endpoint table in messages.
  { name: 'sdk', root: 'libs/sdk', type: 'data-access', scope: 'shared' },
  // Solidity sources (Foundry); its project.json is written by hand (forge targets).
  { name: 'contracts', root: 'libs/contracts', type: 'contract-source', scope: 'shared', foundry: true },
  // Checks of the deployment files (docker/compose.yaml, k8s/) against the Compose and Kubernetes schemas.
  { name: 'deploy-check', root: 'tools/deploy-check', type: 'check', scope: 'tools' },
  // The module boundaries of eslint.config.mjs, each rule shown rejecting a violation (its test target runs jest
  // under --experimental-vm-modules, for ESLint's import() of the config).
  { name: 'lint-config', root: 'tools/lint', type: 'check', scope: 'tools' },
];

function projectJson(p) {
  const targets = {
    lint: { executor: 'nx:run-commands', options: { command: `eslint ${p.root}`, cwd: '{workspaceRoot}' } },
    typecheck: {
      executor: 'nx:run-commands',
      options: { command: `tsc -p ${p.root}/tsconfig.json --noEmit`, cwd: '{workspaceRoot}' },
    },
    test: {
      executor: 'nx:run-commands',
      options: { command: `jest -c ${p.root}/jest.config.cjs --passWithNoTests`, cwd: '{workspaceRoot}' },
    },
  };
  return {
    $schema: '../../node_modules/nx/schemas/project-schema.json',
    name: p.name,
    sourceRoot: `${p.root}/src`,
    projectType: p.type === 'app' ? 'application' : 'library',
    tags: [`type:${p.type}`, `scope:${p.scope}`, ...(p.tags ?? [])],
    targets,
  };
}

if (process.argv.includes('--write')) {
  for (const p of projects.filter((p) => !p.foundry)) {
    mkdirSync(join(p.root, 'src'), { recursive: true });
    const files = {
      'project.json': JSON.stringify(projectJson(p), null, 2) + '\n',
      'tsconfig.json':
        JSON.stringify(
          { extends: '../../tsconfig.base.json', include: ['src/**/*.ts', 'test/**/*.ts'] },
          null,
          2,
        ) + '\n',
      'jest.config.cjs': `module.exports = {\n  ...require('../../jest.preset.cjs'),\n  displayName: '${p.name}',\n  rootDir: __dirname,\n};\n`,
    };
    for (const [file, body] of Object.entries(files)) {
      const target = join(p.root, file);
      if (!existsSync(target)) writeFileSync(target, body);
    }
  }
}
