#!/usr/bin/env node
// Generates typed ABIs and deployment bytecode for the TypeScript side from the Foundry project.
//
//   node tools/abis/generate.mjs            build libs/contracts, write libs/abis/src/generated/*.ts + index.ts
//   node tools/abis/generate.mjs --check    build, compare with the files on disk, exit 1 listing any drift
//   --no-build                              use the artifacts already in libs/contracts/out
//
// To publish another contract, add it to CONTRACTS below (EXTERNAL: from a protocol's npm package's artifact;
// COMPILED_EXTERNAL: compiled here from a protocol's npm package's source, with its own compiler and settings).
import '../runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Contracts to publish. `name` is the contract name; `source` the file under libs/contracts/src when it
 * differs from `<name>.sol`; `exportName` overrides the camelCase prefix of the exports; `runtime` also exports the
 * runtime code (`<prefix>RuntimeBytecode`), for a contract that is placed by a state override instead of deployed.
 */
const CONTRACTS = [
  { name: 'Multicall3' },
  { name: 'WrappedNative' },
  { name: 'TestERC20' },
  { name: 'UniswapV2Factory' },
  { name: 'UniswapV2Pair' },
  { name: 'StablePoolFactory' },
  { name: 'StablePool' },
  { name: 'RouterV2', exportName: 'routerV2' },
  { name: 'RouterV2Permit2', exportName: 'routerV2Permit2' },
  { name: 'AmmPool' },
  { name: 'AmmRouter' },
  { name: 'RefCodeRegistry' },
  { name: 'SettablePriceOracle' },
  { name: 'HyperCorePriceOracle' },
  { name: 'Launchpad' },
  { name: 'LaunchpadToken' },
  { name: 'ScaleSeeder' },
  { name: 'PositionMinter' },
  { name: 'PoolQuoter' },
  { name: 'V4PositionMinter' },
  { name: 'DynamicFeeHook', source: 'V4Hooks.sol' },
  { name: 'InputFeeHook', source: 'V4Hooks.sol' },
  { name: 'SwapLimitHook', source: 'V4Hooks.sol' },
  { name: 'CurveStableSwapNGStandIn' },
  { name: 'CurveStableSwapFactoryNGStandIn' },
  { name: 'CurveTwocryptoNGStandIn' },
  { name: 'CurveTwocryptoFactoryNGStandIn' },
  { name: 'CurveTwocryptoMathNGStandIn' },
  { name: 'CurveTwocryptoViewNGStandIn' },
  { name: 'TransferProbe', source: 'TransferProbe.sol', runtime: true },
  { name: 'RouteSimulator', source: 'RouteSimulator.sol', runtime: true },
  { name: 'FeeOnTransferToken', source: 'MisbehavingTokens.sol' },
  { name: 'ReturnsFalseToken', source: 'MisbehavingTokens.sol' },
  { name: 'RevertOnZeroToken', source: 'MisbehavingTokens.sol' },
  { name: 'PausableToken', source: 'MisbehavingTokens.sol' },
  { name: 'BlocklistToken', source: 'MisbehavingTokens.sol' },
  { name: 'ReentrantToken', source: 'MisbehavingTokens.sol' },
  { name: 'NoReturnToken', source: 'MisbehavingTokens.sol' },
  { name: 'Bytes32MetadataToken', source: 'MisbehavingTokens.sol' },
  { name: 'FixedFeeToken', source: 'WildTokens.sol' },
  { name: 'TaxToken', source: 'WildTokens.sol' },
  { name: 'LaunchTaxToken', source: 'WildTokens.sol' },
  { name: 'MaxTxToken', source: 'WildTokens.sol' },
  { name: 'SilentPauseToken', source: 'WildTokens.sol' },
  { name: 'SilentBlocklistToken', source: 'WildTokens.sol' },
  { name: 'RebasingToken', source: 'WildTokens.sol' },
  { name: 'LyingBalanceToken', source: 'WildTokens.sol' },
];

/**
 * Contracts published from the protocols' own npm packages (their audited bytecode, not built here): `artifact` is
 * the Hardhat or Waffle artifact under node_modules. The real Uniswap V2 factory and pair share their names with our
 * V2 clone (kept for a V2 source whose fee is not 0.3%), hence the `UniswapV2Core` prefix.
 */
const EXTERNAL = [
  { name: 'UniswapV2CoreFactory', artifact: '@uniswap/v2-core/build/UniswapV2Factory.json' },
  { name: 'UniswapV2CorePair', artifact: '@uniswap/v2-core/build/UniswapV2Pair.json' },
  { name: 'UniswapV3Factory', artifact: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json' },
  { name: 'UniswapV3Pool', artifact: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json', abiOnly: true },
  { name: 'QuoterV2', artifact: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json' },
  { name: 'UniswapV3PositionManager', artifact: '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json' },
  { name: 'AlgebraFactory', artifact: '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraFactory.sol/AlgebraFactory.json' },
  { name: 'AlgebraPoolDeployer', artifact: '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPoolDeployer.sol/AlgebraPoolDeployer.json' },
  { name: 'AlgebraPool', artifact: '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPool.sol/AlgebraPool.json', abiOnly: true },
  { name: 'AlgebraPositionManager', artifact: '@cryptoalgebra/integral-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json' },
  { name: 'PoolManager', artifact: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json' },
  { name: 'V4Quoter', artifact: '@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json' },
  { name: 'StateView', artifact: '@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json' },
];

/**
 * Contracts compiled here from the Solidity source in a protocol's npm package, for those whose package ships no
 * deployable artifact: `packageDir` is the project's directory under node_modules (imports resolve against it, as in
 * its own Foundry project), `source` the file within it, `compiler` the npm package of the solc-js release its pragma
 * asks for (an exact-version alias in package.json), `settings` its foundry.toml's as standard-JSON settings.
 * `runtime` also exports the runtime code; its immutables are left zero, as the compiler emits them.
 *
 * Permit2: v4-periphery carries its source (a later commit than the 2022 deployment at
 * 0x000000000022D473030F116dDEE9F6B43aC78BA3, so the code is the same length but not byte for byte the same; the
 * abis spec records by how much). Its foundry.toml: solc 0.8.17, via_ir, 1,000,000 optimizer runs, no metadata hash;
 * London, 0.8.17's default EVM version.
 */
const COMPILED_EXTERNAL = [
  {
    name: 'Permit2',
    packageDir: '@uniswap/v4-periphery/lib/permit2',
    source: 'src/Permit2.sol',
    compiler: 'solc-0.8.17',
    settings: {
      optimizer: { enabled: true, runs: 1_000_000 },
      viaIR: true,
      remappings: ['solmate/=lib/solmate/'],
      metadata: { bytecodeHash: 'none' },
      evmVersion: 'london',
    },
    runtime: true,
  },
];

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const CONTRACTS_DIR = join(ROOT, 'libs', 'contracts');
const OUT_DIR = join(CONTRACTS_DIR, 'out');
const ABIS_SRC = join(ROOT, 'libs', 'abis', 'src');
const GENERATED_DIR = join(ABIS_SRC, 'generated');
const HEADER = '// generated by tools/abis/generate.mjs from libs/contracts; do not edit\n';

// Canonical key order of ABI entries and parameters, so the output does not depend on the compiler's order.
const KEY_ORDER = [
  'type',
  'name',
  'inputs',
  'outputs',
  'stateMutability',
  'anonymous',
  'indexed',
  'internalType',
  'components',
];
// Entries are sorted by kind, then name, then their full text (overloads).
const TYPE_ORDER = ['constructor', 'receive', 'fallback', 'function', 'event', 'error'];

// Plain code-unit order: unlike localeCompare, the same on every machine.
const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function fail(message) {
  console.error(`abis: ${message}`);
  process.exit(1);
}

function build() {
  const local = join(ROOT, 'node_modules', '.bin', 'forge');
  const forge = existsSync(local) ? local : 'forge';
  // forge resolves the solc shim path in foundry.toml against the working directory, so run it from there.
  const result = spawnSync(forge, ['build'], { cwd: CONTRACTS_DIR, encoding: 'utf8' });
  if (result.error) fail(`could not run forge: ${result.error.message}`);
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    fail('forge build failed');
  }
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const rank = (key) => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : KEY_ORDER.length);
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || compare(a, b));
  return Object.fromEntries(keys.map((key) => [key, sortKeys(value[key])]));
}

function normaliseAbi(abi) {
  const entries = abi.map(sortKeys).map((entry) => ({ entry, text: JSON.stringify(entry) }));
  const rank = (type) => (TYPE_ORDER.includes(type) ? TYPE_ORDER.indexOf(type) : TYPE_ORDER.length);
  entries.sort(
    (a, b) =>
      rank(a.entry.type) - rank(b.entry.type) ||
      compare(a.entry.name ?? '', b.entry.name ?? '') ||
      compare(a.text, b.text),
  );
  return entries.map(({ entry }) => entry);
}

/** `Multicall3` -> `multicall3`, `TestERC20` -> `testERC20`, `ERC20Mock` -> `erc20Mock`. */
function camelName(name) {
  const lead = /^[A-Z]+/.exec(name)?.[0] ?? '';
  if (lead.length <= 1) return name.charAt(0).toLowerCase() + name.slice(1);
  const rest = name.slice(lead.length);
  const keep = /^[a-z]/.test(rest) ? lead.length - 1 : lead.length;
  return lead.slice(0, keep).toLowerCase() + lead.slice(keep) + rest;
}

function readArtifact({ name, source = `${name}.sol`, runtime }) {
  const file = join(OUT_DIR, source, `${name}.json`);
  if (!existsSync(file)) fail(`missing artifact ${relative(ROOT, file)}; is ${name} in libs/contracts/src/${source}?`);
  const artifact = JSON.parse(readFileSync(file, 'utf8'));
  const bytecode = artifact.bytecode?.object ?? '';
  if (!/^0x[0-9a-fA-F]*$/.test(bytecode)) fail(`${name}: bytecode is not plain hex (unlinked libraries?)`);
  const deployed = runtime ? (artifact.deployedBytecode?.object ?? '').toLowerCase() : undefined;
  if (runtime && !/^0x[0-9a-f]+$/.test(deployed)) fail(`${name}: runtime bytecode is not plain hex`);
  return { abi: artifact.abi, bytecode: bytecode.toLowerCase(), runtimeBytecode: deployed };
}

function readExternalArtifact({ name, artifact }) {
  const file = join(ROOT, 'node_modules', artifact);
  if (!existsSync(file)) fail(`${name}: missing ${relative(ROOT, file)}; run npm ci`);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const raw = typeof json.bytecode === 'string' ? json.bytecode : (json.bytecode?.object ?? json.evm?.bytecode?.object ?? '');
  const bytecode = (raw.startsWith('0x') ? raw : `0x${raw}`).toLowerCase();
  if (!/^0x[0-9a-f]+$/.test(bytecode)) fail(`${name}: bytecode is not plain hex (unlinked libraries?)`);
  return { abi: json.abi, bytecode };
}

/** The pragma's exact version (`pragma solidity 0.8.17;`), which the compiler package must be. */
function exactPragma(name, text) {
  const version = /^\s*pragma\s+solidity\s+=?\s*(\d+\.\d+\.\d+)\s*;/m.exec(text)?.[1];
  if (version === undefined) fail(`${name}: its source does not pin one compiler version (pragma solidity x.y.z;)`);
  return version;
}

function compileExternal({ name, packageDir, source, compiler, settings, runtime }) {
  const dir = join(ROOT, 'node_modules', packageDir);
  const file = join(dir, source);
  if (!existsSync(file)) fail(`${name}: missing ${relative(ROOT, file)}; run npm ci`);
  let solc;
  try {
    solc = require(compiler);
  } catch (error) {
    fail(`${name}: cannot load the compiler package ${compiler} (${error.message}); run npm ci`);
  }
  const content = readFileSync(file, 'utf8');
  const pragma = exactPragma(name, content);
  const version = solc.version();
  if (!version.startsWith(`${pragma}+`)) fail(`${name}: ${compiler} is solc ${version}, its source asks for ${pragma}`);
  const input = {
    language: 'Solidity',
    sources: { [source]: { content } },
    settings: {
      ...settings,
      outputSelection: { [source]: { [name]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  // Imports are paths within the package's project (after the remappings), as its own Foundry build reads them.
  const findImports = (path) => {
    const imported = join(dir, path);
    if (!imported.startsWith(dir + '/') || !existsSync(imported)) return { error: `File not found: ${path}` };
    return { contents: readFileSync(imported, 'utf8') };
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    for (const e of errors) console.error(e.formattedMessage ?? e.message);
    fail(`${name}: ${relative(ROOT, file)} did not compile`);
  }
  const compiled = output.contracts?.[source]?.[name];
  if (compiled === undefined) fail(`${name}: no contract ${name} in ${relative(ROOT, file)}`);
  const bytecode = `0x${compiled.evm.bytecode.object}`.toLowerCase();
  if (!/^0x[0-9a-f]+$/.test(bytecode)) fail(`${name}: bytecode is not plain hex (unlinked libraries?)`);
  const deployed = runtime ? `0x${compiled.evm.deployedBytecode.object}`.toLowerCase() : undefined;
  if (runtime && !/^0x[0-9a-f]+$/.test(deployed)) fail(`${name}: runtime bytecode is not plain hex`);
  return { abi: compiled.abi, bytecode, runtimeBytecode: deployed, version };
}

function renderContract(contract) {
  const external = contract.artifact !== undefined;
  const compiled = contract.packageDir !== undefined;
  const { abi, bytecode, runtimeBytecode, version } = compiled
    ? compileExternal(contract)
    : external
      ? readExternalArtifact(contract)
      : readArtifact(contract);
  const prefix = contract.exportName ?? camelName(contract.name);
  const header = compiled
    ? `// generated by tools/abis/generate.mjs, compiled from the npm package's source ${contract.packageDir}/${contract.source} ` +
      `with solc ${version.replace(/\.Emscripten.*$/, '')} (${contract.compiler}); do not edit\n`
    : external
      ? `// generated by tools/abis/generate.mjs from the npm package's artifact ${contract.artifact}; do not edit\n`
      : HEADER;
  return (
    header +
    `\nexport const ${prefix}Abi = ${JSON.stringify(normaliseAbi(abi), null, 2)} as const;\n` +
    (contract.abiOnly ? '' : `\nexport const ${prefix}Bytecode = '${bytecode}' as const;\n`) +
    (runtimeBytecode ? `\nexport const ${prefix}RuntimeBytecode = '${runtimeBytecode}' as const;\n` : '')
  );
}

function renderIndex() {
  const lines = [...CONTRACTS, ...EXTERNAL, ...COMPILED_EXTERNAL].map(({ name }) => `export * from './generated/${name}';`);
  return `${HEADER}\n${lines.join('\n')}\n`;
}

function expectedFiles() {
  const all = [...CONTRACTS, ...EXTERNAL, ...COMPILED_EXTERNAL];
  const names = all.map((c) => c.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) fail(`${duplicate} is listed twice in CONTRACTS / EXTERNAL / COMPILED_EXTERNAL`);
  const files = new Map();
  for (const contract of all) files.set(join(GENERATED_DIR, `${contract.name}.ts`), renderContract(contract));
  files.set(join(ABIS_SRC, 'index.ts'), renderIndex());
  return files;
}

function staleFiles(expected) {
  if (!existsSync(GENERATED_DIR)) return [];
  return readdirSync(GENERATED_DIR)
    .map((f) => join(GENERATED_DIR, f))
    .filter((f) => !expected.has(f));
}

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--check' && a !== '--no-build');
if (unknown.length > 0) fail(`unknown argument(s): ${unknown.join(' ')}`);
const check = args.includes('--check');

if (!args.includes('--no-build')) build();
const expected = expectedFiles();
const stale = staleFiles(expected);

if (check) {
  const drifted = [];
  for (const [file, content] of expected) {
    if (!existsSync(file)) drifted.push(`${relative(ROOT, file)} (missing)`);
    else if (readFileSync(file, 'utf8') !== content) drifted.push(`${relative(ROOT, file)} (differs)`);
  }
  for (const file of stale) drifted.push(`${relative(ROOT, file)} (not generated from any listed contract)`);
  if (drifted.length > 0) {
    console.error('abis: generated files are out of date with libs/contracts:');
    for (const line of drifted) console.error(`  - ${line}`);
    console.error('Run `node tools/abis/generate.mjs` and commit the result.');
    process.exit(1);
  }
  console.log(`abis: ${expected.size} files up to date`);
} else {
  mkdirSync(GENERATED_DIR, { recursive: true });
  let written = 0;
  for (const [file, content] of expected) {
    if (existsSync(file) && readFileSync(file, 'utf8') === content) continue;
    writeFileSync(file, content);
    written += 1;
    console.log(`abis: wrote ${relative(ROOT, file)}`);
  }
  for (const file of stale) {
    rmSync(file);
    console.log(`abis: removed ${relative(ROOT, file)}`);
  }
  console.log(`abis: ${expected.size} files, ${written} changed, ${stale.length} removed`);
}
