import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Module boundaries: apps are thin wiring over libs; libs depend one way, and the pure libs
// (routing, fee-math) take no I/O packages. Only `db` reaches Postgres; only `chain` builds viem clients
// (the rule bans the transport packages elsewhere).
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
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:contract', 'type:domain'] },
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'], bannedExternalImports: ioPackages },
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
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
