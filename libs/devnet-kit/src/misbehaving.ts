/**
 * Tokens that do not behave: one test token of each kind of the public catalogue of misbehaving ERC20s
 * (libs/contracts/src/devnet/MisbehavingTokens.sol) and of each kind of token seen misbehaving on live chains
 * (libs/contracts/src/devnet/WildTokens.sol: fixed fee, buy and sell tax, launch tax, max transaction, silent pause
 * and blocklist, rebasing, lying balanceOf), each in a DevSwap V2 pool of its own against the chain's wrapped native,
 * so that routes to and from them can be tried on the devnet.
 */
import {
  blocklistTokenAbi,
  blocklistTokenBytecode,
  bytes32MetadataTokenAbi,
  bytes32MetadataTokenBytecode,
  feeOnTransferTokenAbi,
  feeOnTransferTokenBytecode,
  fixedFeeTokenAbi,
  fixedFeeTokenBytecode,
  launchTaxTokenAbi,
  launchTaxTokenBytecode,
  lyingBalanceTokenAbi,
  lyingBalanceTokenBytecode,
  maxTxTokenAbi,
  maxTxTokenBytecode,
  noReturnTokenAbi,
  noReturnTokenBytecode,
  pausableTokenAbi,
  pausableTokenBytecode,
  rebasingTokenAbi,
  rebasingTokenBytecode,
  reentrantTokenAbi,
  reentrantTokenBytecode,
  returnsFalseTokenAbi,
  returnsFalseTokenBytecode,
  revertOnZeroTokenAbi,
  revertOnZeroTokenBytecode,
  silentBlocklistTokenAbi,
  silentBlocklistTokenBytecode,
  silentPauseTokenAbi,
  silentPauseTokenBytecode,
  taxTokenAbi,
  taxTokenBytecode,
  testERC20Abi,
  testERC20Bytecode,
  uniswapV2CoreFactoryAbi,
  uniswapV2CorePairAbi,
  wrappedNativeAbi,
} from '@dex/abis';
import type { ManifestTestToken, TestTokenKind } from '@dex/messages';
import { getAddress, parseUnits, stringToHex, type Abi, type Address, type Hex } from 'viem';
import { devAccounts, type DevAccount } from './accounts';
import { DEV_TOKEN_GRANT, deploy, send, type ChainInProgress, type DeployContext } from './deploy';

/**
 * A misbehaving test token: its kind, metadata and the parameters of its misbehaviour (amounts in whole tokens, as
 * decimal strings: the spec is hashed as JSON into the scale cache's key).
 */
export interface MisbehavingTokenSpec {
  readonly kind: TestTokenKind;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  /** fee-on-transfer: the part of each transfer burned, in basis points. */
  readonly feeBps?: number;
  /** fixed-fee: the amount burned from each transfer, in whole tokens. */
  readonly fixedFee?: string;
  /** tax: the taxes on a buy from and a sell to the token's pool, in basis points. */
  readonly buyTaxBps?: number;
  readonly sellTaxBps?: number;
  /** decaying-fee: the fee at launch, in basis points, and how long it takes to fall to zero, in seconds. */
  readonly startFeeBps?: number;
  readonly decaySeconds?: number;
  /** max-transfer: the largest buy or sell, in whole tokens. */
  readonly maxTxAmount?: string;
  /** rebasing: the growth of every balance per day, in basis points. */
  readonly growthBpsPerDay?: number;
}

/** One token of each kind, the same on both chains. */
export const MISBEHAVING_TOKENS: readonly MisbehavingTokenSpec[] = [
  { kind: 'fee-on-transfer', name: 'Fee On Transfer', symbol: 'FOT', decimals: 18, feeBps: 100 },
  { kind: 'no-return', name: 'No Return Tether', symbol: 'NORET', decimals: 6 },
  { kind: 'returns-false', name: 'Returns False', symbol: 'RFALSE', decimals: 18 },
  { kind: 'revert-on-zero', name: 'Revert On Zero', symbol: 'RZERO', decimals: 18 },
  { kind: 'pausable', name: 'Pausable Token', symbol: 'PAUSE', decimals: 18 },
  { kind: 'blocklist', name: 'Blocklist Token', symbol: 'BLOCK', decimals: 18 },
  { kind: 'low-decimals', name: 'Two Decimals', symbol: 'TWODEC', decimals: 2 },
  { kind: 'high-decimals', name: 'Twenty Four Decimals', symbol: 'YOTTA', decimals: 24 },
  { kind: 'bytes32-metadata', name: 'Maker', symbol: 'MKR', decimals: 18 },
  { kind: 'reentrant', name: 'Reentrant Token', symbol: 'HOOK', decimals: 18 },
  // Seen on live chains (WildTokens.sol).
  { kind: 'fixed-fee', name: 'Fixed Fee', symbol: 'FIXFEE', decimals: 18, fixedFee: '2' },
  { kind: 'tax', name: 'Tax Token', symbol: 'TAX', decimals: 18, buyTaxBps: 300, sellTaxBps: 700 },
  { kind: 'decaying-fee', name: 'Launch Tax', symbol: 'LAUNCH', decimals: 18, startFeeBps: 2_000, decaySeconds: 3_600 },
  // 1,000 tokens: 4% of the pool on 999 (25,000), 3.3% on 4663 (30,000); a few hundred pass, a few thousand do not.
  { kind: 'max-transfer', name: 'Max Tx', symbol: 'MAXTX', decimals: 18, maxTxAmount: '1000' },
  { kind: 'silent-pause', name: 'Silent Pause', symbol: 'SPAUSE', decimals: 18 },
  { kind: 'silent-blocklist', name: 'Silent Blocklist', symbol: 'SBLOCK', decimals: 18 },
  { kind: 'rebasing', name: 'Rebasing Token', symbol: 'REBASE', decimals: 18, growthBpsPerDay: 1_000 },
  { kind: 'lying-balance', name: 'Lying Balance', symbol: 'LIAR', decimals: 18 },
];

/** The kinds whose owner marks the token's pool (`setPool(pool, true)`) once it is seeded: the pool's trades are taxed or limited. */
const MARKS_ITS_POOL: ReadonlySet<TestTokenKind> = new Set(['tax', 'max-transfer']);

/**
 * Each token's pool: whole tokens against whole wrapped native (each token at about $1: HYPE at $25, ETH at
 * $3,000).
 */
const POOL_AMOUNTS: Record<number, { readonly token: string; readonly wrapped: string }> = {
  999: { token: '25000', wrapped: '1000' },
  4663: { token: '30000', wrapped: '10' },
};

/** The contract, its ABI and its constructor arguments for a spec. */
function contractOf(spec: MisbehavingTokenSpec): { contract: string; abi: Abi; bytecode: Hex; args: readonly unknown[] } {
  switch (spec.kind) {
    case 'fee-on-transfer':
      return { contract: 'FeeOnTransferToken', abi: feeOnTransferTokenAbi as Abi, bytecode: feeOnTransferTokenBytecode, args: [spec.name, spec.symbol, BigInt(spec.feeBps ?? 0)] };
    case 'no-return':
      return { contract: 'NoReturnToken', abi: noReturnTokenAbi as Abi, bytecode: noReturnTokenBytecode, args: [spec.name, spec.symbol, spec.decimals] };
    case 'returns-false':
      return { contract: 'ReturnsFalseToken', abi: returnsFalseTokenAbi as Abi, bytecode: returnsFalseTokenBytecode, args: [spec.name, spec.symbol] };
    case 'revert-on-zero':
      return { contract: 'RevertOnZeroToken', abi: revertOnZeroTokenAbi as Abi, bytecode: revertOnZeroTokenBytecode, args: [spec.name, spec.symbol] };
    case 'pausable':
      return { contract: 'PausableToken', abi: pausableTokenAbi as Abi, bytecode: pausableTokenBytecode, args: [spec.name, spec.symbol] };
    case 'blocklist':
      return { contract: 'BlocklistToken', abi: blocklistTokenAbi as Abi, bytecode: blocklistTokenBytecode, args: [spec.name, spec.symbol] };
    case 'low-decimals':
    case 'high-decimals':
      return { contract: 'TestERC20', abi: testERC20Abi as Abi, bytecode: testERC20Bytecode, args: [spec.name, spec.symbol, spec.decimals] };
    case 'bytes32-metadata':
      return { contract: 'Bytes32MetadataToken', abi: bytes32MetadataTokenAbi as Abi, bytecode: bytes32MetadataTokenBytecode, args: [stringToHex(spec.name, { size: 32 }), stringToHex(spec.symbol, { size: 32 })] };
    case 'reentrant':
      return { contract: 'ReentrantToken', abi: reentrantTokenAbi as Abi, bytecode: reentrantTokenBytecode, args: [spec.name, spec.symbol] };
    case 'fixed-fee':
      return { contract: 'FixedFeeToken', abi: fixedFeeTokenAbi as Abi, bytecode: fixedFeeTokenBytecode, args: [spec.name, spec.symbol, parseUnits(spec.fixedFee ?? '0', spec.decimals)] };
    case 'tax':
      return { contract: 'TaxToken', abi: taxTokenAbi as Abi, bytecode: taxTokenBytecode, args: [spec.name, spec.symbol, BigInt(spec.buyTaxBps ?? 0), BigInt(spec.sellTaxBps ?? 0)] };
    case 'decaying-fee':
      return { contract: 'LaunchTaxToken', abi: launchTaxTokenAbi as Abi, bytecode: launchTaxTokenBytecode, args: [spec.name, spec.symbol, BigInt(spec.startFeeBps ?? 0), BigInt(spec.decaySeconds ?? 1)] };
    case 'max-transfer':
      return { contract: 'MaxTxToken', abi: maxTxTokenAbi as Abi, bytecode: maxTxTokenBytecode, args: [spec.name, spec.symbol, parseUnits(spec.maxTxAmount ?? '0', spec.decimals)] };
    case 'silent-pause':
      return { contract: 'SilentPauseToken', abi: silentPauseTokenAbi as Abi, bytecode: silentPauseTokenBytecode, args: [spec.name, spec.symbol] };
    case 'silent-blocklist':
      return { contract: 'SilentBlocklistToken', abi: silentBlocklistTokenAbi as Abi, bytecode: silentBlocklistTokenBytecode, args: [spec.name, spec.symbol] };
    case 'rebasing':
      return { contract: 'RebasingToken', abi: rebasingTokenAbi as Abi, bytecode: rebasingTokenBytecode, args: [spec.name, spec.symbol, BigInt(spec.growthBpsPerDay ?? 0)] };
    case 'lying-balance':
      return { contract: 'LyingBalanceToken', abi: lyingBalanceTokenAbi as Abi, bytecode: lyingBalanceTokenBytecode, args: [spec.name, spec.symbol] };
  }
}

/** The manifest fields that describe a test token's misbehaviour. */
type TestTokenParameters = Pick<ManifestTestToken, 'feeBps' | 'fixedFee' | 'buyTaxBps' | 'sellTaxBps' | 'startFeeBps' | 'decaySeconds' | 'maxTxAmount' | 'growthBpsPerDay'>;

/** The manifest's description of a spec's misbehaviour (amounts in base units), without the fields it has not. */
function parametersOf(spec: MisbehavingTokenSpec): TestTokenParameters {
  const units = (whole: string | undefined) => (whole === undefined ? undefined : parseUnits(whole, spec.decimals).toString());
  const all: TestTokenParameters = {
    feeBps: spec.feeBps,
    fixedFee: units(spec.fixedFee),
    buyTaxBps: spec.buyTaxBps,
    sellTaxBps: spec.sellTaxBps,
    startFeeBps: spec.startFeeBps,
    decaySeconds: spec.decaySeconds,
    maxTxAmount: units(spec.maxTxAmount),
    growthBpsPerDay: spec.growthBpsPerDay,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

/**
 * Deploys the misbehaving tokens, mints each dev account its grant, and puts each token in a DevSwap V2 pool
 * (routerIndex 1) of its own against the wrapped native; the fee-on-transfer token has a second, smaller pool on
 * LiteSwap V2 (routerIndex 2), so that a large enough trade splits across two pools and each leg pays the fee. The
 * tax and max-transfer tokens' owner marks their DevSwap pool once it is seeded (the seeding mints are exempt
 * anyway), so that trades with it are taxed or limited. Returns the chain entry with them as `testTokens`, their
 * pools and deployments added.
 */
export async function deployMisbehavingTokens(ctx: DeployContext, chain: ChainInProgress, accounts: readonly DevAccount[] = devAccounts()): Promise<ChainInProgress> {
  const amounts = POOL_AMOUNTS[ctx.chainId];
  const dex = chain.sources.find((s) => s.routerIndex === 1 && s.kind === 'uniswap-v2');
  if (!amounts || !dex?.addresses.factory) return chain;
  // Both V2 factories answer createPair/getPair alike, as do both pairs' mint.
  const factoryAbi = uniswapV2CoreFactoryAbi as Abi;
  const pairAbi = uniswapV2CorePairAbi as Abi;
  const wrapped = chain.wrappedNative.address as Address;
  const wrappedEach = parseUnits(amounts.wrapped, 18);
  await send(ctx, { address: wrapped, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: wrappedEach * BigInt(MISBEHAVING_TOKENS.length + 1) });
  const second = chain.sources.find((s) => s.routerIndex === 2 && s.kind === 'uniswap-v2');

  const testTokens: ManifestTestToken[] = [];
  const deployments: ChainInProgress['deployments'] = [];
  const pools: ChainInProgress['pools'] = [];
  for (const spec of MISBEHAVING_TOKENS) {
    const { contract, abi, bytecode, args } = contractOf(spec);
    const address = await deploy(ctx, abi, bytecode, args);
    for (const account of accounts) {
      await send(ctx, { address, abi, functionName: 'mint', args: [account.address, parseUnits(DEV_TOKEN_GRANT.toString(), spec.decimals)] });
    }
    deployments.push({ name: spec.symbol, contract, address });
    /** A pool of `source` holding `share` of the token's pool amounts. */
    const seedPool = async (source: NonNullable<typeof dex>, share: bigint): Promise<Address> => {
      const factory = source.addresses.factory as Address;
      await send(ctx, { address: factory, abi: factoryAbi, functionName: 'createPair', args: [address, wrapped] });
      const pool = getAddress((await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'getPair', args: [address, wrapped] })) as Address);
      await send(ctx, { address, abi, functionName: 'mint', args: [pool, (parseUnits(amounts.token, spec.decimals) * share) / 100n] });
      await send(ctx, { address: wrapped, abi: wrappedNativeAbi as Abi, functionName: 'transfer', args: [pool, (wrappedEach * share) / 100n] });
      await send(ctx, { address: pool, abi: pairAbi, functionName: 'mint', args: [ctx.deployer.address] });
      const [token0, token1] = BigInt(address) < BigInt(wrapped) ? [address, wrapped] : [wrapped, address];
      const name = `${source.name} ${spec.symbol}/${chain.wrappedNative.symbol}`;
      pools.push({ name, routerIndex: source.routerIndex, kind: 'uniswap-v2', address: pool, token0, token1 });
      deployments.push({ name, contract: 'UniswapV2Pair', address: pool });
      return pool;
    };
    const pool = await seedPool(dex, 100n);
    if (spec.kind === 'fee-on-transfer' && second?.addresses.factory) await seedPool(second, 50n);
    if (MARKS_ITS_POOL.has(spec.kind)) await send(ctx, { address, abi, functionName: 'setPool', args: [pool, true] });
    testTokens.push({ kind: spec.kind, name: spec.name, symbol: spec.symbol, decimals: spec.decimals, address, pool, ...parametersOf(spec) });
  }
  return { ...chain, testTokens, deployments: [...chain.deployments, ...deployments], pools: [...chain.pools, ...pools] };
}
