import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Module boundaries (@nx/enforce-module-boundaries) on three kinds of tag in each project.json.
//
// Layers (`type:*`), lowest first; a project imports projects of its own layer or below, never above:
//   contract < domain < data-access < platform < kit < testing < app, e2e
//   - contract     abis, messages: ABIs, bus subjects, payload schemas, the REST endpoint table
//   - domain       routing, fee-math, liquidity: pure pool maths, path search, fees, the liquidity state;
//                  no I/O package
//   - data-access  chain (viem), db (Prisma), sdk (HTTP): one outside system each; they do not import
//                  each other (their own layer is closed to them)
//   - platform     service: what every service is built from (config, logs, the bus, health, metrics); it reaches
//                  no chain and no database. chain-service: the same kit's part for the services that reach chains
//                  and the database (chain settings, RPC and Postgres readiness, the database module)
//   - kit          devnet-kit: anvil chains, deployment and seeding
//   - testing      testing: real Postgres, NATS and chains for tests
//   - app, e2e     the services and the end-to-end tests; nothing imports them
//   (check: the tool projects under tools/, which import no workspace project.)
// Tests (spec files, test/ folders, apps/e2e) of data-access and higher layers may also use the kit and
// the testing lib; the domain and contract layers stay pure in their tests too.
//
// Scopes (`scope:*`): a product area imports its own scope and `scope:shared`.
//   shared      abis, messages, routing, fee-math, chain, db, sdk, service, chain-service (and the Solidity sources).
//               routing is shared, not the aggregator's: beside the path search it holds the pool maths
//               that chain, the launchpad service, the keeper and the devnet use (constant product,
//               launchpad curve).
//   aggregator  liquidity, aggregator-router
//   core        amm-quoter, referral-keeper (the oracle-validated AMM and its keeper)
//   launchpad   launchpad-service
//   indexer     indexer
//   devnet      devnet, devnet-kit: production code of any other project cannot import the devnet kit;
//               tests (and libs/testing, and the benches through dist/) can
//   deploy      libs/deploy: the deploy tool (npm run deploy), our contracts onto any chain from a config file
//   testing     libs/testing (it runs chains through the devnet kit)
//   e2e         apps/e2e (it runs the deploy tool too)
//   gateway     the gateway imports only the libs tagged `consumer:gateway` (messages and service), and
//               none of the packages in `gatewayBannedPackages`
//   tools       tools/* projects
//
// The libs tagged `consumer:gateway` import only each other (and, in their tests, the testing lib), so nothing the
// gateway loads reaches a chain or a database; the service kit among them takes none of `gatewayKitBannedPackages`,
// and messages takes only zod and viem's helpers (`viem/utils`: the package's root loads its clients too).
const LAYERS = {
  'type:contract': ['type:contract'],
  'type:domain': ['type:contract', 'type:domain'],
  'type:data-access': ['type:contract', 'type:domain'],
  'type:platform': ['type:contract', 'type:domain', 'type:data-access', 'type:platform'],
  'type:kit': ['type:contract', 'type:domain', 'type:data-access', 'type:platform', 'type:kit'],
  'type:testing': ['type:contract', 'type:domain', 'type:data-access', 'type:platform', 'type:kit', 'type:testing'],
  'type:app': ['type:contract', 'type:domain', 'type:data-access', 'type:platform', 'type:kit'],
  'type:e2e': ['type:contract', 'type:domain', 'type:data-access', 'type:platform', 'type:kit', 'type:testing'],
  'type:check': [],
};
/** Layers whose tests may use the devnet kit and the testing lib. */
const TESTED_WITH_KITS = ['type:data-access', 'type:platform', 'type:kit', 'type:testing', 'type:app', 'type:e2e'];

const SCOPES = {
  'scope:shared': ['scope:shared'],
  'scope:aggregator': ['scope:shared', 'scope:aggregator'],
  'scope:core': ['scope:shared', 'scope:core'],
  'scope:launchpad': ['scope:shared', 'scope:launchpad'],
  'scope:indexer': ['scope:shared', 'scope:indexer'],
  'scope:devnet': ['scope:shared', 'scope:devnet'],
  'scope:deploy': ['scope:shared', 'scope:deploy'],
  'scope:testing': ['scope:shared', 'scope:devnet'],
  'scope:e2e': ['scope:shared', 'scope:devnet', 'scope:deploy', 'scope:testing'],
  'scope:gateway': ['consumer:gateway'],
  'scope:tools': [],
};
/** What tests may use beside their scope's own list. */
const TEST_SCOPES = ['scope:devnet', 'scope:testing'];

/** Packages that do I/O: the pure layers take none; the contract layer takes none but viem's types and helpers. */
const ioPackages = ['@prisma/*', 'prisma', 'pg', 'nats', '@nestjs/*', 'viem', 'viem/*'];
const BANNED_PACKAGES = {
  'type:contract': ['@prisma/*', 'prisma', 'pg', 'nats', '@nestjs/*'],
  'type:domain': ioPackages,
  'type:data-access': ['@nestjs/*', 'nats'],
};
/**
 * The gateway validates, asks the services over NATS through the service kit and answers: no chain client,
 * no database, no bus client of its own, no Nest microservice handlers, no contract tooling.
 */
const gatewayBannedPackages = ['viem', 'viem/*', 'nats', '@prisma/*', 'prisma', 'pg', '@nestjs/microservices', '@foundry-rs/*', 'solc', '@openzeppelin/*'];
/** The service kit the gateway is built from builds no chain client and opens no database (messages keeps viem's helpers). */
const gatewayKitBannedPackages = ['viem', 'viem/*', '@prisma/*', 'prisma', 'pg'];

/** The rule's constraints; `tests` widens them for spec files, test folders and the end-to-end tests. */
function depConstraints({ tests }) {
  return [
    ...Object.entries(LAYERS).map(([sourceTag, below]) => ({
      sourceTag,
      onlyDependOnLibsWithTags: tests && TESTED_WITH_KITS.includes(sourceTag) ? [...new Set([...below, 'type:kit', 'type:testing'])] : below,
      ...(BANNED_PACKAGES[sourceTag] ? { bannedExternalImports: BANNED_PACKAGES[sourceTag] } : {}),
    })),
    ...Object.entries(SCOPES).map(([sourceTag, allowed]) => ({
      sourceTag,
      onlyDependOnLibsWithTags: tests && sourceTag !== 'scope:tools' ? [...allowed, ...TEST_SCOPES] : allowed,
      ...(sourceTag === 'scope:gateway' ? { bannedExternalImports: gatewayBannedPackages } : {}),
    })),
    { sourceTag: 'consumer:gateway', onlyDependOnLibsWithTags: tests ? ['consumer:gateway', ...TEST_SCOPES] : ['consumer:gateway'] },
    { allSourceTags: ['type:platform', 'consumer:gateway'], bannedExternalImports: gatewayKitBannedPackages },
    ...(tests ? [] : [{ allSourceTags: ['type:contract', 'consumer:gateway'], allowedExternalImports: ['zod', 'viem/utils'] }]),
  ];
}

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.nx/**',
      '**/.devnet/**',
      'libs/contracts/out/**',
      'libs/contracts/cache/**',
      'libs/db/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: depConstraints({ tests: false }),
        },
      ],
    },
  },
  {
    // Tests may also use the devnet kit and the testing lib (real Postgres, NATS and chains), and loose typing.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'apps/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: depConstraints({ tests: true }),
        },
      ],
    },
  },
  {
    // Prisma and the Postgres driver belong to the db lib alone.
    files: ['apps/**/*.ts', 'libs/!(db)/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@prisma/*', 'pg'], message: 'Only libs/db talks to Postgres; use @dex/db.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
