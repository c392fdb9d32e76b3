// ChainLiquidity on a chain with a Uniswap V4 source: v4-core's own PoolManager bytecode (with v4-periphery's
// V4Quoter) on a private anvil, pools set up by the test actor (`UniswapV4Actor.sol`). Pools the indexer stored by
// PoolId alone are read whole at the stored block (their key from Initialize, their storage through extsload); a pool
// announced by the indexer's facts after it is followed from them; a dynamic-fee pool's LP fee, changed by its hook
// without an event, is read from slot0 at the next block; a pool whose hook may change swaps is kept out with its
// reason, which GET /liquidity shows; reads that fail leave the pools as they were until a later block. The engine's
// legs over the routed pools quote what the PoolManager's own swap does, to the wei.
import { createChainClient, readUniswapV4Pools, type ChainPublicClient } from '@dex/chain';
import type { StoredChainLiquidity } from '@dex/db';
import { testERC20Abi, testERC20Bytecode } from '@dex/abis';
import type { PoolRecord } from '@dex/liquidity';
import { CHAIN_FACTS, chainEventSchemas, type SourceConfig, type UniswapV4PoolRead } from '@dex/messages';
import type { ConcentratedLeg, UniswapV4PoolSnapshot } from '@dex/routing';
import type { ChainFactMessage, Histogram } from '@dex/service';
import { artifactOf, compileUniswapV4Actor, ONCHAIN_CALL_GAS, startOnchainChain, type OnchainChain } from '@dex/testing';
import { Logger } from '@nestjs/common';
import poolManagerArtifact from '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json';
import v4QuoterArtifact from '@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json';
import type { FastifyReply } from 'fastify';
import { encodeAbiParameters, getAddress, keccak256, parseEventLogs, toHex, zeroAddress, type Abi, type Address, type Hex, type TransactionReceipt } from 'viem';
import type { ChainEntry } from './chain-config';
import { LiquidityController } from './liquidity.controller';
import { ChainLiquidity, LiquidityService } from './liquidity.service';

jest.setTimeout(120_000);

const CHAIN_ID = 999;
const ROUTER_INDEX = 9;
const Q96 = 2n ** 96n;
const E21 = 10n ** 21n;
/** A hook with only afterDonate (1 << 4): it cannot change swaps; the dynamic-fee pool's, impersonated to set its LP fee. */
const FEE_HOOK = getAddress('0x00000000000000000000000000000000000f0010');
/** A hook with beforeSwap (1 << 7): its pool is kept, not routed. */
const SWAP_HOOK = getAddress('0x00000000000000000000000000000000000f0080');
const DYNAMIC_FEE = 0x800000;
const HASH = `0x${'0'.repeat(64)}`;
const managerAbi = poolManagerArtifact.abi as Abi;

const foundry = (a: { abi: unknown; bytecode: { object: string } }) => ({ abi: a.abi as Abi, bytecode: a.bytecode.object as Hex });

interface PoolKey {
  readonly currency0: Address;
  readonly currency1: Address;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: Address;
}

interface Position {
  readonly lower: number;
  readonly upper: number;
  readonly liquidity: bigint;
}

interface TestPool {
  readonly key: PoolKey;
  readonly id: Hex;
  readonly sqrtPriceX96: bigint;
  /** The block of its Initialize (its setUp). */
  createdBlock: bigint;
  /** Its positions by the block they were added at. */
  readonly positions: (Position & { block: bigint })[];
}

const POOL_KEY = { type: 'tuple', components: [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }] } as const;
const poolId = (key: PoolKey): Hex => keccak256(encodeAbiParameters([POOL_KEY], [[key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]]));

/** Every bound of the positions open at `block` with its net liquidity, ascending: the pool's initialized ticks. */
function ticksAt(pool: TestPool, block: bigint): { index: number; liquidityNet: bigint }[] {
  const net = new Map<number, bigint>();
  for (const p of pool.positions.filter((q) => q.block <= block)) {
    net.set(p.lower, (net.get(p.lower) ?? 0n) + p.liquidity);
    net.set(p.upper, (net.get(p.upper) ?? 0n) - p.liquidity);
  }
  return [...net].sort((a, b) => a[0] - b[0]).map(([index, liquidityNet]) => ({ index, liquidityNet }));
}

/** What the state holds of a pool, in the shape of a whole read. */
function heldOf(record: PoolRecord | undefined): UniswapV4PoolRead | undefined {
  const { concentrated: c, uniswapV4: v4 } = record ?? {};
  if (!c || !v4) return undefined;
  const ticks = [...c.ticks].sort((a, b) => a[0] - b[0]).map(([index, t]) => ({ index, liquidityGross: t.liquidityGross, liquidityNet: t.liquidityNet }));
  return { sqrtPriceX96: c.sqrtPriceX96, tick: c.tick, protocolFee: v4.protocolFee, lpFee: c.fee ?? -1, liquidity: c.liquidity, ticks };
}

let seq = 0;
/** A fact as the subscription hands it over: validated by its schema. */
function message<F extends ChainFactMessage['fact']>(fact: F, payload: object): ChainFactMessage {
  return { chainId: CHAIN_ID, fact, payload: chainEventSchemas[fact].parse(payload), seq: ++seq } as ChainFactMessage;
}

const blockDone = (block: bigint) => message(CHAIN_FACTS.block, { chainId: CHAIN_ID, blockNumber: block.toString(), blockHash: HASH, parentHash: HASH, timestamp: 0 });

/** The facts the indexer publishes for a transaction's PoolManager logs: Initialize, ModifyLiquidity and Swap. */
function factsOf(receipt: TransactionReceipt): ChainFactMessage[] {
  const base = { chainId: CHAIN_ID, blockNumber: receipt.blockNumber.toString(), blockHash: receipt.blockHash, timestamp: 0 };
  return parseEventLogs({ abi: managerAbi, logs: receipt.logs }).flatMap((log): ChainFactMessage[] => {
    const args = log.args as Record<string, unknown>;
    const at = { ...base, logIndex: log.logIndex, txHash: log.transactionHash, address: (args.id as string).toLowerCase() };
    const text = (v: unknown) => String(v);
    switch (log.eventName) {
      case 'Initialize':
        return [
          message(CHAIN_FACTS.poolCreated, {
            ...base,
            address: at.address,
            kind: 'uniswap-v4',
            routerIndex: ROUTER_INDEX,
            token0: args.currency0,
            token1: args.currency1,
            stable: false,
            fee: args.fee,
            tickSpacing: args.tickSpacing,
            poolManager: log.address,
            currency0: args.currency0,
            currency1: args.currency1,
            hooks: args.hooks,
            sqrtPriceX96: text(args.sqrtPriceX96),
            tick: args.tick,
          }),
        ];
      case 'ModifyLiquidity':
        return [message(CHAIN_FACTS.poolConcentrated, { ...at, event: 'modifyLiquidity', sender: args.sender, tickLower: args.tickLower, tickUpper: args.tickUpper, liquidityDelta: text(args.liquidityDelta), salt: args.salt })];
      case 'Swap': {
        const swap = { sqrtPriceX96: text(args.sqrtPriceX96), tick: args.tick, liquidity: text(args.liquidity), amount0: text(args.amount0), amount1: text(args.amount1), fee: args.fee };
        return [message(CHAIN_FACTS.poolConcentrated, { ...at, event: 'swap', sender: args.sender, ...swap })];
      }
      default:
        return [];
    }
  });
}

describe('ChainLiquidity: Uniswap V4 pools of a configured PoolManager', () => {
  let chain: OnchainChain;
  let client: ChainPublicClient;
  let actor: Address;
  let actorAbi: Abi;
  let manager: Address;
  let quoter: Address;
  let wrapped: Address;
  const pools = new Map<string, TestPool>();
  /** The stored block, then: a position added to `tokens`, `announced` set up, `dynamic`'s LP fee changed, an empty block. */
  let stored: bigint;
  let receipts: { position: TransactionReceipt; announced: TransactionReceipt };
  let feeChanged: bigint;
  let emptyBlock: bigint;

  const pool = (name: string) => pools.get(name)!;
  const rpc = (method: string, params: unknown[] = []) => chain.client.request({ method: method as never, params: params as never });
  const sources = (): SourceConfig[] => [{ name: 'V4', kind: 'uniswap-v4', routerIndex: ROUTER_INDEX, addresses: { poolManager: manager } }];
  const entry = () => ({ wrappedNative: { address: wrapped, symbol: 'W', name: 'Wrapped', decimals: 18 }, tokens: [], pools: [] }) as unknown as ChainEntry;

  /** Sets a pool up (initialized, positions added) and names it. */
  async function setUp(name: string, key: PoolKey, sqrtPriceX96: bigint, positions: Position[]): Promise<TransactionReceipt> {
    const receipt = await chain.send(actor, actorAbi, 'setUp', [manager, key, sqrtPriceX96, positions, { active: false, zeroForOne: false, amount: 0n, limit: 0n }]);
    pools.set(name, { key, id: poolId(key), sqrtPriceX96, createdBlock: receipt.blockNumber, positions: positions.map((p) => ({ ...p, block: receipt.blockNumber })) });
    return receipt;
  }

  /** The dynamic-fee pool's LP fee set by its hook (no event); the block it is set in. */
  async function setDynamicFee(fee: number): Promise<bigint> {
    const hash = await chain.wallet.writeContract({ address: manager, abi: managerAbi, functionName: 'updateDynamicLPFee', args: [pool('dynamic').key, fee], account: FEE_HOOK, chain: chain.wallet.chain, gas: 1_000_000n } as never);
    const receipt = await chain.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return receipt.blockNumber;
  }

  beforeAll(async () => {
    const [compiled, started] = await Promise.all([compileUniswapV4Actor(), startOnchainChain({ chainId: CHAIN_ID })]);
    [chain, actorAbi] = [started, compiled.abi];
    client = createChainClient({ chainId: CHAIN_ID, rpcUrl: chain.node.rpcUrl, timeoutMs: 60_000 });
    actor = await chain.deploy(compiled);
    const tokens: Address[] = [];
    for (let i = 0; i < 3; i++) {
      const token = await chain.deploy(artifactOf({ abi: testERC20Abi, bytecode: testERC20Bytecode }), [`Token ${i}`, `T${i}`, 18]);
      await chain.send(token, testERC20Abi as Abi, 'mint', [actor, 1n << 220n]);
      tokens.push(token);
    }
    const [a, b] = tokens.slice(0, 2).sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
    wrapped = tokens[2];
    manager = await chain.deploy(foundry(poolManagerArtifact), [chain.account.address]);
    quoter = await chain.deploy(foundry(v4QuoterArtifact), [manager]);
    await rpc('anvil_impersonateAccount', [FEE_HOOK]);
    await rpc('anvil_setBalance', [FEE_HOOK, toHex(10n ** 20n)]);

    const positions = (spacing: number): Position[] => [
      { lower: -100 * spacing, upper: 100 * spacing, liquidity: E21 },
      { lower: -3 * spacing, upper: 5 * spacing, liquidity: 4n * E21 },
    ];
    await setUp('tokens', { currency0: a, currency1: b, fee: 3000, tickSpacing: 60, hooks: zeroAddress }, Q96, positions(60));
    await setUp('dynamic', { currency0: a, currency1: b, fee: DYNAMIC_FEE, tickSpacing: 60, hooks: FEE_HOOK }, (Q96 * 6n) / 5n, positions(60));
    await setUp('hooked', { currency0: a, currency1: b, fee: 500, tickSpacing: 10, hooks: SWAP_HOOK }, Q96, positions(10));
    stored = await setDynamicFee(2500);

    // After the stored block: a position added to `tokens`, a pool set up, the dynamic LP fee changed, an empty block.
    const added = { lower: 600, upper: 1200, liquidity: 2n * E21 };
    const position = await chain.send(actor, actorAbi, 'modify', [manager, pool('tokens').key, [{ lower: added.lower, upper: added.upper, liquidityDelta: added.liquidity }]]);
    pool('tokens').positions.push({ ...added, block: position.blockNumber });
    const announced = await setUp('announced', { currency0: a, currency1: b, fee: 500, tickSpacing: 10, hooks: zeroAddress }, (Q96 * 99n) / 100n, positions(10));
    receipts = { position, announced };
    feeChanged = await setDynamicFee(7000);
    await rpc('evm_mine');
    emptyBlock = await chain.client.getBlockNumber({ cacheTime: 0 });
  });

  afterAll(async () => {
    await chain?.node.stop();
  });

  /** What the indexer stored at `stored`: the pools set up by then, by PoolId alone. */
  const storedLiquidity = (): StoredChainLiquidity => ({
    block: stored,
    hash: HASH,
    pools: ['tokens', 'dynamic', 'hooked'].map((name) => ({
      address: pool(name).id,
      kind: 'uniswap-v4',
      routerIndex: ROUTER_INDEX,
      token0: pool(name).key.currency0,
      token1: pool(name).key.currency1,
      createdBlock: pool(name).createdBlock,
      reserve0: null,
      reserve1: null,
      reservesBlock: null,
      curve: null,
    })),
    tokens: [pool('tokens').key.currency0, pool('tokens').key.currency1].map((address, i) => ({ address, symbol: `T${i}`, name: `Token ${i}`, decimals: 18 })),
  });

  /** A chain's liquidity loaded from `storedLiquidity` over `node`, with the steps its block work observed. */
  async function loaded(node: ChainPublicClient = client) {
    const steps: string[] = [];
    const blockWork = { observe: (labels: { step: string }) => steps.push(labels.step) } as unknown as Histogram;
    const liquidity = new ChainLiquidity(CHAIN_ID, entry(), sources(), node, { load: async () => storedLiquidity() }, { blockWork });
    await liquidity.load();
    return { liquidity, steps };
  }

  const routed = (liquidity: ChainLiquidity, name: string) => liquidity.snapshot!.pools.find((s) => s.address === pool(name).id) as UniswapV4PoolSnapshot | undefined;

  /** The routed pool's snapshot: its key, fee, price and ticks as of `block`. */
  function expectRouted(liquidity: ChainLiquidity, name: string, block: bigint, fee: number): void {
    const { key, id } = pool(name);
    expect(routed(liquidity, name)).toMatchObject({
      kind: 'uniswap-v4',
      address: id,
      routerIndex: ROUTER_INDEX,
      token0: key.currency0,
      token1: key.currency1,
      poolManager: manager,
      currency0: key.currency0,
      currency1: key.currency1,
      hooks: key.hooks,
      dynamicFee: key.fee === DYNAMIC_FEE,
      protocolFee: 0,
      fee,
      tickSpacing: key.tickSpacing,
      ticks: ticksAt(pool(name), block),
    });
  }

  /** The engine's legs over a routed pool quote, both ways, what the PoolManager's own swap does at `block`. */
  async function expectQuotesOfChain(liquidity: ChainLiquidity, name: string, block: bigint): Promise<void> {
    const snapshot = routed(liquidity, name)!;
    const quotes: { leg: ConcentratedLeg; zeroForOne: boolean; amount: bigint }[] = [];
    for (const zeroForOne of [true, false]) {
      const [tokenIn, tokenOut] = zeroForOne ? [snapshot.token0, snapshot.token1] : [snapshot.token1, snapshot.token0];
      const leg = liquidity.snapshot!.graph.legs.get(tokenIn.toLowerCase())?.get(tokenOut.toLowerCase())?.find((l) => l.pool.address === snapshot.address) as ConcentratedLeg;
      expect({ name, zeroForOne, leg: leg !== undefined }).toEqual({ name, zeroForOne, leg: true });
      for (const amount of [10n ** 15n, 10n ** 20n, 3n * E21, 10n ** 24n]) quotes.push({ leg, zeroForOne, amount });
    }
    const { result } = await chain.client.simulateContract({
      address: actor,
      abi: actorAbi,
      functionName: 'quote',
      args: [manager, quoter, pool(name).key, quotes.map(({ zeroForOne, amount }) => ({ zeroForOne, exactInput: true, amount }))],
      account: chain.account.address,
      blockNumber: block,
      gas: ONCHAIN_CALL_GAS,
    });
    (result as { ok: boolean; amountIn: bigint; amountOut: bigint; sqrtPriceAfter: bigint }[]).forEach((onChain, i) => {
      const { leg, zeroForOne, amount } = quotes[i];
      const engine = leg.swapExactIn(amount);
      expect({ name, zeroForOne, amount, swap: [onChain.ok, onChain.amountIn, onChain.amountOut, onChain.sqrtPriceAfter] }).toEqual({
        name,
        zeroForOne,
        amount,
        swap: engine ? [true, engine.amountIn, engine.amountOut, engine.sqrtPriceX96] : [false, 0n, 0n, 0n],
      });
      expect(onChain.amountOut).toBeGreaterThan(0n);
    });
  }

  it('reads the pools stored by PoolId at the stored block, routes them at the PoolManager prices, and keeps a hooked pool out with its reason', async () => {
    const { liquidity, steps } = await loaded();
    // The position added after the stored block does not show: the pools are read at that block.
    expect(liquidity.snapshot!.blockNumber).toBe(stored);
    expect(liquidity.snapshot!.pools.map((s) => s.address).sort()).toEqual([pool('tokens').id, pool('dynamic').id].sort());
    expectRouted(liquidity, 'tokens', stored, 3000);
    expectRouted(liquidity, 'dynamic', stored, 2500);
    expect(routed(liquidity, 'tokens')!.sqrtPriceX96).toBe(Q96);
    expect(steps).toContain('v4-read');
    await expectQuotesOfChain(liquidity, 'tokens', stored);
    await expectQuotesOfChain(liquidity, 'dynamic', stored);

    const reason = `hook ${SWAP_HOOK} may change swaps (beforeSwap); not on the source's hook list`;
    expect(liquidity.exclusion(liquidity.liquidityState!.pool(pool('hooked').id)!)).toBe(reason);
    const reply = { status: jest.fn() } as unknown as FastifyReply;
    const answer = new LiquidityController(new LiquidityService(new Map([[CHAIN_ID, liquidity]]))).state(String(CHAIN_ID), reply) as { data: { routablePools: number; pools: Record<string, unknown>[] } };
    expect(answer.data.routablePools).toBe(2);
    const record = (name: string) => answer.data.pools.find((p) => p.address === pool(name).id);
    expect(record('hooked')).toMatchObject({ poolId: pool('hooked').id, kind: 'uniswap-v4', hooks: SWAP_HOOK, fee: 500, tickSpacing: 10, poolManager: manager, excluded: reason });
    expect(record('dynamic')).toMatchObject({ poolId: pool('dynamic').id, hooks: FEE_HOOK, fee: 2500, tickSpacing: 60, dynamicFee: true, protocolFee: 0 });
    expect(record('dynamic')).not.toHaveProperty('excluded');
  });

  it('follows a pool announced by its facts, and reads a dynamic LP fee its hook changed without an event at the next block', async () => {
    const { liquidity, steps } = await loaded();
    for (const fact of factsOf(receipts.position)) await liquidity.onFact(fact);
    await liquidity.onFact(blockDone(receipts.position.blockNumber));
    expectRouted(liquidity, 'tokens', receipts.position.blockNumber, 3000);

    const announcedAt = receipts.announced.blockNumber;
    const announced = factsOf(receipts.announced);
    expect(announced.map((f) => f.fact)).toEqual([CHAIN_FACTS.poolCreated, CHAIN_FACTS.poolConcentrated, CHAIN_FACTS.poolConcentrated]);
    const wholeReads = () => steps.filter((s) => s === 'v4-read').length;
    const before = wholeReads();
    for (const fact of announced) await liquidity.onFact(fact);
    await liquidity.onFact(blockDone(announcedAt));
    expect(liquidity.snapshot!.blockNumber).toBe(announcedAt);
    // Its pool-created fact carries its key and first price: nothing is read whole.
    expect(wholeReads()).toBe(before);
    expectRouted(liquidity, 'announced', announcedAt, 500);
    // What the facts built is what a whole read of the pool at the block says.
    const [read] = await readUniswapV4Pools(client, { poolManager: manager, blockNumber: announcedAt, pools: [{ id: pool('announced').id, tickSpacing: 10 }] });
    expect(heldOf(liquidity.liquidityState!.pool(pool('announced').id))).toEqual(read);
    await expectQuotesOfChain(liquidity, 'announced', announcedAt);
    expect(routed(liquidity, 'dynamic')!.fee).toBe(2500);

    // The hook's fee change has no event: the block's fact alone moves it, from slot0.
    await liquidity.onFact(blockDone(feeChanged));
    expect(liquidity.snapshot!.blockNumber).toBe(feeChanged);
    expectRouted(liquidity, 'dynamic', feeChanged, 7000);
    expect(steps).toContain('v4-fees');
    await expectQuotesOfChain(liquidity, 'dynamic', feeChanged);
  });

  it('leaves pools whose read fails as they were, logs it, and reads them at a later block', async () => {
    let failing = true;
    let failed = 0;
    const flaky = new Proxy(client, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if ((property !== 'getLogs' && property !== 'call') || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (!failing) return (value as (...a: unknown[]) => unknown).apply(target, args);
          failed++;
          return Promise.reject(new Error('the node does not answer'));
        };
      },
    });
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const { liquidity } = await loaded(flaky);
      expect(liquidity.snapshot!.pools).toEqual([]);
      expect(liquidity.liquidityState!.statelessManagedPools()).toHaveLength(3);
      for (const fact of factsOf(receipts.position)) await liquidity.onFact(fact);
      await liquidity.onFact(blockDone(receipts.position.blockNumber));
      expect(liquidity.snapshot!.blockNumber).toBe(receipts.position.blockNumber);
      expect(liquidity.snapshot!.pools).toEqual([]);
      expect(failed).toBe(2);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ msg: 'Uniswap V4 pools not read; again at the next block', missing: 3 }));

      failing = false;
      await liquidity.onFact(blockDone(receipts.announced.blockNumber));
      expect(liquidity.liquidityState!.statelessManagedPools()).toEqual([]);
      expectRouted(liquidity, 'tokens', receipts.announced.blockNumber, 3000);
      expectRouted(liquidity, 'dynamic', receipts.announced.blockNumber, 2500);

      // A fee read that fails leaves the fee as it was; the next block reads it.
      failing = true;
      await liquidity.onFact(blockDone(feeChanged));
      expect(liquidity.snapshot!.blockNumber).toBe(feeChanged);
      expect(routed(liquidity, 'dynamic')!.fee).toBe(2500);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ msg: 'Uniswap V4 fees not read; again at the next block', missing: 1 }));
      failing = false;
      await liquidity.onFact(blockDone(emptyBlock));
      expectRouted(liquidity, 'dynamic', emptyBlock, 7000);
    } finally {
      warn.mockRestore();
    }
  });
});
