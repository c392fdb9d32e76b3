/**
 * The engine's Uniswap V4 swap (`swapUniswapV4`) against v4-core's own PoolManager on a private anvil chain, pools
 * without hooks: the PoolManager from @uniswap/v4-core's build (`out/`), V4Quoter and StateView from
 * @uniswap/v4-periphery's (`foundry-out/`). Random pools (fees from 0 to 99.9999%, dynamic-looking odd ones included;
 * tick spacings from 1 to 2,000; an eighth of them against the native currency; random positions; a third moved by
 * a first trade), their state read back through StateView into the engine's terms, then 10,000 random swaps (both
 * directions, exact input and output, dust to past the last initialized tick) at V4's price limits, each quoted two
 * ways on chain in one call per pool by the test actor (`UniswapV4Actor.sol`): the PoolManager's own swap inside an
 * `unlock` that reverts with its amounts and the price after, and V4Quoter. Equal to the wei, the price after too.
 *
 * Where the references differ by design: V4Quoter refuses a swap the pool cannot fill in full (NotEnoughLiquidity),
 * exact input or output; the pool itself and the engine fill it up to the price limit.
 */
import { testERC20Abi, testERC20Bytecode } from '@dex/abis';
import { compileUniswapV4Actor } from '@dex/testing';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO, swapUniswapV4, TickTable, type ConcentratedPoolState, type SwapResult, type TickLiquidity } from '@dex/routing';
import poolManagerArtifact from '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json';
import stateViewArtifact from '@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json';
import v4QuoterArtifact from '@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json';
import { encodeAbiParameters, keccak256, toHex, type Abi, type Address, type Hex } from 'viem';
import { CALL_GAS, inParallel, sendAll, startOnchainChain, type OnchainChain } from './onchain-chain';
import { int, mulberry32, pick, randomAmount, randomPool, ticksOf, type PoolPlan, type Random } from './random-pools';

jest.setTimeout(300_000);

const POOLS = 200;
const SWAPS_PER_POOL = 50;
const NATIVE: Address = '0x0000000000000000000000000000000000000000';
const NO_HOOKS: Address = NATIVE;
/** V4's deltas are int128: amounts the test asks for stay below. */
const INT128_MAX = (1n << 127n) - 1n;

const foundry = (a: { abi: unknown; bytecode: { object: string } }) => ({ abi: a.abi as Abi, bytecode: a.bytecode.object as Hex });

interface PoolKey {
  readonly currency0: Address;
  readonly currency1: Address;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: Address;
}

const POOL_KEY = { type: 'tuple', components: [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }] } as const;
const poolId = (key: PoolKey): Hex => keccak256(encodeAbiParameters([POOL_KEY], [[key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]]));

interface Quote {
  readonly zeroForOne: boolean;
  readonly exactInput: boolean;
  readonly amount: bigint;
}

interface Outcome {
  readonly ok: boolean;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly sqrtPriceAfter: bigint;
  readonly quoterOk: boolean;
  readonly quoterAmount: bigint;
}

/** A pool as the engine reads it, and its key. */
interface V4Pool {
  readonly key: PoolKey;
  readonly state: ConcentratedPoolState;
  readonly ticks: readonly TickLiquidity[];
}

describe('Uniswap V4 pools on chain: the engine against the PoolManager and V4Quoter, to the wei', () => {
  let chain: OnchainChain;
  let actor: Address;
  let actorAbi: Abi;
  let manager: Address;
  let quoter: Address;
  let stateView: Address;
  let tokens: Address[];

  beforeAll(async () => {
    const compiled = await compileUniswapV4Actor();
    actorAbi = compiled.abi;
    chain = await startOnchainChain();
    actor = await chain.deploy(compiled);
    // The actor pays the native currency of its pools from its own balance.
    await chain.client.request({ method: 'anvil_setBalance' as never, params: [actor, toHex(1n << 200n)] as never });
    tokens = [];
    for (let i = 0; i < 21; i++) {
      const token = await chain.deploy({ abi: testERC20Abi as Abi, bytecode: testERC20Bytecode as Hex }, [`Token ${i}`, `T${i}`, 18]);
      await chain.send(token, testERC20Abi as Abi, 'mint', [actor, 1n << 220n]);
      tokens.push(token);
    }
    manager = await chain.deploy(foundry(poolManagerArtifact), [chain.account.address]);
    quoter = await chain.deploy(foundry(v4QuoterArtifact), [manager]);
    stateView = await chain.deploy(foundry(stateViewArtifact), [manager]);
  });

  afterAll(async () => {
    await chain?.node.stop();
  });

  const engineState = (s: Omit<ConcentratedPoolState, 'ticks'>, ticks: readonly TickLiquidity[]): ConcentratedPoolState => ({ ...s, ticks: new TickTable(ticks) });

  /** What the engine says of a swap, or undefined where it refuses it. */
  const engineSwap = (state: ConcentratedPoolState, zeroForOne: boolean, amount: bigint, limit?: bigint): SwapResult | undefined => {
    try {
      return swapUniswapV4(state, zeroForOne, amount, limit);
    } catch {
      return undefined;
    }
  };

  /** The pools: keys on the tokens' pairs (an eighth on the native currency), fees and spacings, prices, positions. */
  function planPools(random: Random): { key: PoolKey; plan: PoolPlan }[] {
    const pairs = tokens.flatMap((a, i) => tokens.slice(i + 1).map((b) => [a, b] as const));
    const keys = new Set<string>();
    return pairs.slice(0, POOLS).map(([a, b], i) => {
      let fee = pick(random, [0, 100, 500, 3000, 10000, int(random, 1, 999_999)]);
      const tickSpacing = pick(random, [1, 10, 60, 200, int(random, 1, 2000)]);
      const [x, y] = i % 8 === 0 ? [NATIVE, a] : BigInt(a) < BigInt(b) ? [a, b] : [b, a];
      // A key is a pool: two native-currency pools of one token differ in their fee at least.
      while (keys.has(`${x}:${y}:${fee}:${tickSpacing}`)) fee++;
      keys.add(`${x}:${y}:${fee}:${tickSpacing}`);
      return { key: { currency0: x, currency1: y, fee, tickSpacing, hooks: NO_HOOKS }, plan: randomPool(random, tickSpacing) };
    });
  }

  /** A first trade for a third of the pools: to an initialized tick's price, or of a random input. */
  function firstMove(random: Random, key: PoolKey, plan: PoolPlan) {
    const none = { active: false, zeroForOne: false, amount: 0n, limit: 0n };
    if (random() >= 0.35) return none;
    const zeroForOne = random() < 0.5;
    const ticks = ticksOf(plan.positions);
    const liquidity = plan.positions.reduce((s, p) => (p.lower <= plan.tick && plan.tick < p.upper ? s + p.liquidity : s), 0n);
    const state = engineState({ sqrtPriceX96: plan.sqrtPriceX96, tick: plan.tick, liquidity, fee: key.fee, tickSpacing: key.tickSpacing }, ticks);
    const beyond = ticks.filter((t) => (zeroForOne ? t.index <= plan.tick : t.index > plan.tick));
    if (beyond.length > 0 && random() < 0.5) {
      const limit = state.ticks.ratio(state.ticks.atOrBelow(pick(random, beyond).index));
      const inside = limit > MIN_SQRT_RATIO && limit < MAX_SQRT_RATIO && (zeroForOne ? limit < plan.sqrtPriceX96 : limit > plan.sqrtPriceX96);
      const swap = inside ? engineSwap(state, zeroForOne, INT128_MAX, limit) : undefined;
      return swap && swap.amountIn < INT128_MAX && swap.amountOut <= INT128_MAX ? { active: true, zeroForOne, amount: INT128_MAX, limit } : none;
    }
    const whole = engineSwap(state, zeroForOne, INT128_MAX)?.amountIn ?? 0n;
    return whole > 0n && whole < INT128_MAX ? { active: true, zeroForOne, amount: randomAmount(random, whole / 2n), limit: 0n } : none;
  }

  /** A pool's state read back through StateView, checking its ticks hold what the positions put there. */
  async function readPool(key: PoolKey, plan: PoolPlan): Promise<V4Pool> {
    const id = poolId(key);
    const read = (functionName: string, args: readonly unknown[]) => chain.client.readContract({ address: stateView, abi: stateViewArtifact.abi as Abi, functionName, args });
    const ticks = ticksOf(plan.positions);
    const [slot0, liquidity, infos] = await Promise.all([
      read('getSlot0', [id]) as Promise<[bigint, number, number, number]>,
      read('getLiquidity', [id]) as Promise<bigint>,
      Promise.all(ticks.map((t) => read('getTickLiquidity', [id, t.index]) as Promise<[bigint, bigint]>)),
    ]);
    const [sqrtPriceX96, tick, protocolFee, lpFee] = slot0;
    expect({ key, protocolFee, lpFee }).toEqual({ key, protocolFee: 0, lpFee: key.fee });
    expect(infos.map(([, net]) => net)).toEqual(ticks.map((t) => t.liquidityNet));
    return { key, ticks, state: engineState({ sqrtPriceX96, tick, liquidity, fee: lpFee, tickSpacing: key.tickSpacing }, ticks) };
  }

  /** Random swaps for a pool: half each way, exact input and output alternating, sized on what the pool holds. */
  function swapsFor(random: Random, pool: V4Pool): Quote[] {
    const quotes: Quote[] = [];
    for (const zeroForOne of [true, false]) {
      const whole = engineSwap(pool.state, zeroForOne, INT128_MAX);
      for (let i = 0; i < SWAPS_PER_POOL / 2; i++) {
        const exactInput = i % 2 === 0;
        const scale = whole ? (exactInput ? whole.amountIn : whole.amountOut) : 10n ** 18n;
        const amount = randomAmount(random, scale > 0n ? scale : 10n ** 18n);
        quotes.push({ zeroForOne, exactInput, amount: amount > INT128_MAX ? INT128_MAX : amount });
      }
    }
    return quotes;
  }

  it('10,000 random swaps equal to the wei, through the pool and through V4Quoter', async () => {
    const random = mulberry32(1704);
    const started = Date.now();
    const plans = planPools(random);
    const receipts = await sendAll(
      chain,
      plans.map(({ key, plan }) => ({
        address: actor,
        abi: actorAbi,
        functionName: 'setUp',
        args: [manager, key, plan.sqrtPriceX96, plan.positions.map((p) => ({ lower: p.lower, upper: p.upper, liquidity: p.liquidity })), firstMove(random, key, plan)],
      })),
    );
    receipts.forEach((r, i) => expect({ key: plans[i].key, status: r.status }).toEqual({ key: plans[i].key, status: 'success' }));
    const pools = await inParallel(plans, 8, ({ key, plan }) => readPool(key, plan));
    const setUp = Date.now();

    const batches = pools.map((pool) => swapsFor(random, pool));
    const outcomes = await inParallel(pools, 8, async (pool, i) => {
      const { result } = await chain.client.simulateContract({ address: actor, abi: actorAbi, functionName: 'quote', args: [manager, quoter, pool.key, batches[i]], account: chain.account.address, gas: CALL_GAS });
      return result as Outcome[];
    });
    const quoted = Date.now();

    const tally = { swaps: 0, partial: 0, crossed: 0, refused: 0, quoterChecks: 0, native: 0 };
    pools.forEach((pool, p) => {
      batches[p].forEach((q, i) => {
        const chainSwap = outcomes[p][i];
        const engine = engineSwap(pool.state, q.zeroForOne, q.exactInput ? q.amount : -q.amount);
        const context = { key: pool.key, quote: q, chainSwap, engine };
        tally.swaps++;
        if (pool.key.currency0 === NATIVE) tally.native++;
        if (!engine) {
          tally.refused++;
          expect({ ...context, ok: [chainSwap.ok, chainSwap.quoterOk] }).toEqual({ ...context, ok: [false, false] });
          return;
        }
        // The pool's own swap: what it took, paid, and where it left the price.
        expect({ ...context, got: [chainSwap.ok, chainSwap.amountIn, chainSwap.amountOut, chainSwap.sqrtPriceAfter] }).toEqual({
          ...context,
          got: [true, engine.amountIn, engine.amountOut, engine.sqrtPriceX96],
        });
        if (engine.liquidity !== pool.state.liquidity) tally.crossed++;
        const partial = q.exactInput ? engine.amountIn < q.amount : engine.amountOut < q.amount;
        if (partial) {
          // V4Quoter refuses what the pool cannot fill in full.
          tally.partial++;
          expect({ ...context, quoterOk: chainSwap.quoterOk }).toEqual({ ...context, quoterOk: false });
          return;
        }
        expect({ ...context, quoter: [chainSwap.quoterOk, chainSwap.quoterAmount] }).toEqual({ ...context, quoter: [true, q.exactInput ? engine.amountOut : engine.amountIn] });
        tally.quoterChecks++;
      });
    });
    console.log(
      `uniswap-v4: ${tally.swaps} swaps on ${pools.length} pools (${tally.native} on native-currency pools, ${tally.crossed} crossing ticks, ${tally.partial} past the last tick, ` +
        `${tally.refused} refused by both; ${tally.quoterChecks} also against V4Quoter); set-up ${setUp - started} ms, on-chain quotes ${quoted - setUp} ms`,
    );
    expect(tally.swaps).toBeGreaterThanOrEqual(10_000);
    expect(tally.crossed).toBeGreaterThan(tally.swaps / 10);
    expect(tally.partial).toBeGreaterThan(tally.swaps / 50);
    expect(tally.native).toBeGreaterThan(tally.swaps / 10);
    expect(tally.quoterChecks).toBeGreaterThan(tally.swaps / 2);
    expect(tally.refused).toBeLessThan(tally.swaps / 100);
  });
});
