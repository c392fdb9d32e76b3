// The module boundaries of eslint.config.mjs, checked by linting code that breaks each rule on purpose
// (and code that keeps them) as if it were a file of the project named by its path. The rule reads the
// cached project graph and skips itself, silently passing every file, when there is none: the setup writes
// the graph and the spec fails on the rule's "will be skipped" warning.
import { createProjectGraphAsync, workspaceRoot } from '@nx/devkit';
import { ESLint, type Linter } from 'eslint';

const RULE = '@nx/enforce-module-boundaries';

interface Case {
  /** Where the code is linted as if it lived. */
  readonly file: string;
  /** What it imports. */
  readonly imports: readonly string[];
}

interface Violation extends Case {
  readonly rule: string;
  /** The rule's message for the first import. */
  readonly message: RegExp;
}

const layer = (source: string, allowed: string) => new RegExp(`tagged with "${source}" can only depend on libs tagged with ${allowed}$`);
const scope = layer;
const banned = (source: string, imp: string) => new RegExp(`tagged with "${source}" is not allowed to import "${imp.replace(/[/.]/g, '\\$&')}"$`);

const VIOLATIONS: readonly Violation[] = [
  // The gateway: messages and service, nothing else of the workspace, and no chain, bus or database package.
  { rule: 'the gateway imports no domain lib', file: 'apps/gateway/src/violation.ts', imports: ['@dex/routing'], message: scope('scope:gateway', '"consumer:gateway"') },
  { rule: 'the gateway imports no shared lib but messages and service', file: 'apps/gateway/src/violation.ts', imports: ['@dex/chain'], message: scope('scope:gateway', '"consumer:gateway"') },
  { rule: 'the gateway does not reach the devnet kit', file: 'apps/gateway/src/violation.ts', imports: ['@dex/devnet-kit'], message: scope('scope:gateway', '"consumer:gateway"') },
  { rule: 'the gateway does not use viem', file: 'apps/gateway/src/violation.ts', imports: ['viem'], message: banned('scope:gateway', 'viem') },
  { rule: 'the gateway does not use viem subpaths', file: 'apps/gateway/src/violation.ts', imports: ['viem/accounts'], message: banned('scope:gateway', 'viem/accounts') },
  { rule: 'the gateway has no NATS client of its own', file: 'apps/gateway/src/violation.ts', imports: ['nats'], message: banned('scope:gateway', 'nats') },
  { rule: 'the gateway does not use Prisma', file: 'apps/gateway/src/violation.ts', imports: ['@prisma/client'], message: banned('scope:gateway', '@prisma/client') },
  { rule: 'the gateway does not use pg', file: 'apps/gateway/src/violation.ts', imports: ['pg'], message: banned('scope:gateway', 'pg') },
  { rule: 'the gateway serves no bus handlers of its own', file: 'apps/gateway/src/violation.ts', imports: ['@nestjs/microservices'], message: banned('scope:gateway', '@nestjs/microservices') },
  { rule: "the gateway's tests keep its bounds", file: 'apps/gateway/test/violation.spec.ts', imports: ['@dex/routing'], message: scope('scope:gateway', '"consumer:gateway", "scope:devnet", "scope:testing"') },
  { rule: 'the gateway does not use the chain service kit', file: 'apps/gateway/src/violation.ts', imports: ['@dex/chain-service'], message: scope('scope:gateway', '"consumer:gateway"') },
  { rule: 'the gateway does not reach the database', file: 'apps/gateway/src/violation.ts', imports: ['@dex/db'], message: scope('scope:gateway', '"consumer:gateway"') },
  // What the gateway imports imports only what the gateway may: the service kit reaches no chain and no database.
  { rule: 'the service kit does not import chain', file: 'libs/service/src/violation.ts', imports: ['@dex/chain'], message: scope('consumer:gateway', '"consumer:gateway"') },
  { rule: 'the service kit does not import db', file: 'libs/service/src/violation.ts', imports: ['@dex/db'], message: scope('consumer:gateway', '"consumer:gateway"') },
  { rule: 'the service kit does not import the chain service kit built on it', file: 'libs/service/src/violation.ts', imports: ['@dex/chain-service'], message: /^Circular dependency between "service" and "chain-service" detected/ },
  { rule: "the service kit's tests do not import chain either", file: 'libs/service/test/violation.spec.ts', imports: ['@dex/chain'], message: scope('consumer:gateway', '"consumer:gateway", "scope:devnet", "scope:testing"') },
  { rule: 'the messages the gateway uses import no other lib', file: 'libs/messages/src/violation.ts', imports: ['@dex/abis'], message: scope('consumer:gateway', '"consumer:gateway"') },
  { rule: 'the service kit builds no chain client', file: 'libs/service/src/violation.ts', imports: ['viem'], message: banned('type:platform" and "consumer:gateway', 'viem') },
  { rule: 'the service kit does not use Prisma', file: 'libs/service/src/violation.ts', imports: ['@prisma/client'], message: banned('type:platform" and "consumer:gateway', '@prisma/client') },
  { rule: "messages take viem's helpers only, not the package root that loads its clients", file: 'libs/messages/src/violation.ts', imports: ['viem'], message: banned('type:contract" and "consumer:gateway', 'viem') },
  // The devnet kit and the testing lib stay out of production code.
  { rule: 'the indexer does not run the devnet kit', file: 'apps/indexer/src/violation.ts', imports: ['@dex/devnet-kit'], message: scope('scope:indexer', '"scope:shared", "scope:indexer"') },
  { rule: 'the launchpad service does not run the devnet kit', file: 'apps/launchpad-service/src/violation.ts', imports: ['@dex/devnet-kit'], message: scope('scope:launchpad', '"scope:shared", "scope:launchpad"') },
  { rule: 'an app does not use the testing lib', file: 'apps/launchpad-service/src/violation.ts', imports: ['@dex/testing'], message: layer('type:app', '"type:contract", "type:domain", "type:data-access", "type:platform", "type:kit"') },
  { rule: 'the service kit does not use the devnet kit', file: 'libs/service/src/violation.ts', imports: ['@dex/devnet-kit'], message: layer('type:platform', '"type:contract", "type:domain", "type:data-access", "type:platform"') },
  // Layers: nothing imports a layer above its own; data-access libs do not import each other.
  { rule: 'chain does not import db (data-access libs are apart)', file: 'libs/chain/src/violation.ts', imports: ['@dex/db'], message: layer('type:data-access', '"type:contract", "type:domain"') },
  { rule: 'sdk does not import chain', file: 'libs/sdk/src/violation.ts', imports: ['@dex/chain'], message: layer('type:data-access', '"type:contract", "type:domain"') },
  { rule: 'a data-access lib does not import the platform', file: 'libs/sdk/src/violation.ts', imports: ['@dex/service'], message: layer('type:data-access', '"type:contract", "type:domain"') },
  { rule: 'a domain lib does not import a data-access lib', file: 'libs/fee-math/src/violation.ts', imports: ['@dex/chain'], message: layer('type:domain', '"type:contract", "type:domain"') },
  { rule: 'liquidity does not import db', file: 'libs/liquidity/src/violation.ts', imports: ['@dex/db'], message: layer('type:domain', '"type:contract", "type:domain"') },
  { rule: 'a domain lib stays pure in its tests', file: 'libs/liquidity/src/violation.spec.ts', imports: ['@dex/testing'], message: layer('type:domain', '"type:contract", "type:domain"') },
  { rule: 'a contract lib does not import a domain lib', file: 'libs/messages/src/violation.ts', imports: ['@dex/routing'], message: layer('type:contract', '"type:contract"') },
  { rule: 'a data-access lib does not import the devnet kit', file: 'libs/sdk/src/violation.ts', imports: ['@dex/devnet-kit'], message: layer('type:data-access', '"type:contract", "type:domain"') },
  { rule: 'the tools import no workspace project', file: 'tools/deploy-check/src/violation.ts', imports: ['@dex/messages'], message: /tagged with "type:check" cannot depend on any libs with tags$/ },
  // Packages per layer.
  { rule: 'a domain lib does no I/O', file: 'libs/routing/src/violation.ts', imports: ['viem'], message: banned('type:domain', 'viem') },
  { rule: 'a contract lib has no bus client', file: 'libs/messages/src/violation.ts', imports: ['nats'], message: banned('type:contract', 'nats') },
  { rule: 'a data-access lib does not use Nest', file: 'libs/chain/src/violation.ts', imports: ['@nestjs/common'], message: banned('type:data-access', '@nestjs/common') },
  // Product areas.
  { rule: "the core AMM does not use the aggregator's liquidity state", file: 'apps/amm-quoter/src/violation.ts', imports: ['@dex/liquidity'], message: scope('scope:core', '"scope:shared", "scope:core"') },
  { rule: 'a shared lib does not import an area lib', file: 'libs/chain/src/violation.ts', imports: ['@dex/liquidity'], message: scope('scope:shared', '"scope:shared"') },
];

const PERMITTED: readonly (Case & { readonly why: string })[] = [
  { why: 'the gateway uses messages, service, Nest, Fastify and zod', file: 'apps/gateway/src/permitted.ts', imports: ['@dex/messages', '@dex/service', '@nestjs/common', '@nestjs/core', 'fastify', 'zod'] },
  { why: 'the devnet app runs the devnet kit', file: 'apps/devnet/src/permitted.ts', imports: ['@dex/devnet-kit', '@dex/routing', '@dex/service'] },
  { why: "the indexer's tests run chains and infrastructure", file: 'apps/indexer/test/permitted.spec.ts', imports: ['@dex/devnet-kit', '@dex/testing', '@dex/db'] },
  { why: "the launchpad service's specs run the devnet kit", file: 'apps/launchpad-service/src/tokens/permitted.spec.ts', imports: ['@dex/devnet-kit', '@dex/testing'] },
  { why: 'the testing lib runs chains through the devnet kit', file: 'libs/testing/src/permitted.ts', imports: ['@dex/devnet-kit', '@dex/db'] },
  { why: 'chain reads with viem and the curve maths of routing', file: 'libs/chain/src/permitted.ts', imports: ['@dex/routing', '@dex/abis', '@dex/messages', 'viem'] },
  { why: 'the service kit builds on messages, NATS and Nest', file: 'libs/service/src/permitted.ts', imports: ['@dex/messages', 'nats', '@nestjs/common', '@nestjs/microservices'] },
  { why: 'the chain service kit builds on the service kit, chain, db and messages', file: 'libs/chain-service/src/permitted.ts', imports: ['@dex/service', '@dex/chain', '@dex/db', '@dex/messages', 'viem', '@nestjs/common'] },
  { why: "the chain service kit's tests use the testing lib", file: 'libs/chain-service/test/permitted.spec.ts', imports: ['@dex/testing'] },
  { why: "the service kit's tests use the testing lib", file: 'libs/service/test/permitted.spec.ts', imports: ['@dex/testing'] },
  { why: "messages use zod and viem's helpers", file: 'libs/messages/src/permitted.ts', imports: ['zod', 'viem/utils'] },
  { why: "messages' tests use the whole of viem", file: 'libs/messages/src/permitted.spec.ts', imports: ['viem'] },
  { why: 'the aggregator uses its liquidity state', file: 'apps/aggregator-router/src/permitted.ts', imports: ['@dex/liquidity', '@dex/routing', '@dex/fee-math', '@dex/db', '@dex/chain'] },
  { why: 'the services that reach chains and the database are built from both service kits', file: 'apps/indexer/src/permitted.ts', imports: ['@dex/service', '@dex/chain-service'] },
  { why: 'liquidity builds on routing', file: 'libs/liquidity/src/permitted.ts', imports: ['@dex/routing'] },
  { why: 'the end-to-end tests use everything but the apps', file: 'apps/e2e/test/permitted.e2e.spec.ts', imports: ['@dex/sdk', '@dex/testing', '@dex/devnet-kit', '@dex/db', '@dex/service'] },
];

/** A module importing each of `imports` and using them, so no other rule has anything to say. */
const moduleImporting = (imports: readonly string[]) =>
  imports.map((imp, i) => `import * as m${i} from '${imp}';`).join('\n') + `\nexport const used = [${imports.map((_, i) => `m${i}`).join(', ')}];\n`;

describe('module boundaries (eslint.config.mjs)', () => {
  let eslint: ESLint;
  let printed = '';
  let restore: () => void;

  beforeAll(async () => {
    // The rule reads the graph nx caches under .nx/workspace-data; compute and cache it now, as any nx
    // command does, so the spec does not depend on an earlier command having run.
    process.env.NX_DAEMON = 'false';
    await createProjectGraphAsync({ exitOnError: false });
    const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      printed += String(chunk);
      return write(chunk, ...rest);
    }) as typeof process.stdout.write);
    restore = () => spy.mockRestore();
    eslint = new ESLint({ cwd: workspaceRoot });
  });

  afterAll(() => restore?.());

  const lint = async (c: Case): Promise<Linter.LintMessage[]> => {
    const [result] = await eslint.lintText(moduleImporting(c.imports), { filePath: `${workspaceRoot}/${c.file}` });
    return result.messages;
  };

  it.each(PERMITTED)('permits: $why ($file)', async (c) => {
    expect(await lint(c)).toEqual([]);
  });

  it.each(VIOLATIONS)('rejects: $rule ($file imports $imports)', async (c) => {
    const messages = await lint(c);
    const boundaries = messages.filter((m) => m.ruleId === RULE);
    expect(boundaries).toEqual([expect.objectContaining({ severity: 2, line: 1, message: expect.stringMatching(c.message) })]);
    // Nothing else makes the code fail: the boundary rule alone rejects it (the Postgres packages are also
    // refused by no-restricted-imports outside libs/db).
    expect(messages.filter((m) => m.ruleId !== RULE && m.ruleId !== 'no-restricted-imports')).toEqual([]);
  });

  it('linted with the project graph: the rule was never skipped', () => {
    expect(printed).not.toMatch(/No cached ProjectGraph|will be skipped/);
  });
});
