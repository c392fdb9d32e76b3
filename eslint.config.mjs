import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Module boundaries: apps are thin wiring over libs; libs depend one way, and the pure libs
// (routing, fee-math) take no I/O packages. Only `db` reaches Postgres; only `chain` builds viem clients
// (the rule bans the transport packages elsewhere).
const infra = ['type:platform', 'type:contract', 'type:data-access', 'type:domain'];
const ioPackages = ['@prisma/*', 'prisma', 'pg', 'nats', '@nestjs/*', 'viem', 'viem/*'];

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
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:platform', 'type:contract', 'type:data-access', 'type:domain'],
            },
            {
              sourceTag: 'type:platform',
              onlyDependOnLibsWithTags: ['type:contract', 'type:data-access', 'type:domain'],
            },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:contract', 'type:domain'] },
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'], bannedExternalImports: ioPackages },
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:testing', 'type:platform', 'type:contract', 'type:data-access', 'type:domain'],
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:platform', 'type:contract', 'type:data-access', 'type:domain'],
            },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:aggregator', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:amm', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:launchpad', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:indexer', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:devnet', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
    },
  },
  {
    // Tests may also use the testing lib (real Postgres, NATS and chains) and loose typing.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'apps/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: [...infra, 'type:testing'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: [...infra, 'type:testing'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: [...infra, 'type:testing'] },
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract', 'type:domain'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: [...infra, 'type:testing'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: [...infra, 'type:testing'] },
            // Pure libs stay pure in their tests too.
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'], bannedExternalImports: ioPackages },
          ],
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
