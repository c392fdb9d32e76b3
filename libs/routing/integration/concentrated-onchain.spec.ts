/**
 * The routing engine's `uniswap-v3` and `algebra` kinds against the real pools on a private anvil chain: the
 * Uniswap V3 factory and pools from @uniswap/v3-core's artifacts quoted by QuoterV2 from @uniswap/v3-periphery,
 * and the Algebra Integral factory, pool deployer and pools from @cryptoalgebra/integral-core quoted by the pool's
 * own swap (reverted in its callback). Random pools (random positions, fee tiers and tick spacings, some moved by
 * a swap first: landing on a tick), their state read back from the chain into engine snapshots, then 10,000
 * random swaps per kind (both directions, exact input and output, dust to past the last initialized tick) at
 * RouterV2's price limits: equal to the wei, with the price after each swap; and the V3 swaps through
 * @uniswap/v3-sdk's pool maths on the same states (on tick spacings from 10).
 *
 * Where the references differ by design: QuoterV2 refuses an exact output the pool cannot pay in full (it checks
 * the output received) and a swap wholly within ranges without liquidity; the pools themselves, the SDK and the
 * engine's swap functions fill such swaps partially, up to the price limit (the engine's legs then quote 0).
 */
import { testERC20Abi, testERC20Bytecode } from '@dex/abis';
import { compileConcentratedActor } from '@dex/testing';
import {
  legsOf,
  MAX_SQRT_RATIO,
  MIN_SQRT_RATIO,
  swapAlgebra,
  swapUniswapV3,
  TickTable,
  type AlgebraPoolSnapshot,
  type ConcentratedLeg,
  type ConcentratedPoolState,
  type SwapResult,
  type UniswapV3PoolSnapshot,
} from '@dex/routing';
import algebraFactoryArtifact from '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraFactory.sol/AlgebraFactory.json';
import algebraDeployerArtifact from '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPoolDeployer.sol/AlgebraPoolDeployer.json';
import v3FactoryArtifact from '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json';
import quoterV2Artifact from '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json';
import { CurrencyAmount, Token } from '@uniswap/sdk-core';
import { Pool, Tick, TickListDataProvider } from '@uniswap/v3-sdk';
import JSBI from 'jsbi';
import { getAddress, getContractAddress, keccak256, parseEventLogs, toHex, type Abi, type Address, type Log } from 'viem';
import { artifact, CALL_GAS, CHAIN_ID, inParallel, sendAll, startOnchainChain, type Artifact, type OnchainChain } from './onchain-chain';
import { int, mulberry32, pick, randomAmount, randomPool, ticksOf, type PoolPlan, type Random } from './random-pools';

jest.setTimeout(300_000);

const POOLS_PER_KIND = 200;
const SWAPS_PER_POOL = 50;
const V3_TIERS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10000, tickSpacing: 200 },
] as const;

interface Outcome {
  readonly ok: boolean;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly sqrtPriceAfter: bigint;
}

interface Quote {
  readonly zeroForOne: boolean;
  readonly exactInput: boolean;
  readonly amount: bigint;
}

type Kind = 'uniswap-v3' | 'algebra';

const SDK_TOKEN0 = new Token(CHAIN_ID, '0x1000000000000000000000000000000000000001', 18);
const SDK_TOKEN1 = new Token(CHAIN_ID, '0x2000000000000000000000000000000000000002', 18);

/** The SDK's pool for a snapshot (its ticks as a TickListDataProvider). */
function sdkPool(pool: UniswapV3PoolSnapshot): Pool {
  const ticks = pool.ticks.map((t) => new Tick({ index: t.index, liquidityGross: JSBI.BigInt(0), liquidityNet: JSBI.BigInt(t.liquidityNet.toString()) }));
  return new Pool(SDK_TOKEN0, SDK_TOKEN1, pool.fee, JSBI.BigInt(pool.sqrtPriceX96.toString()), JSBI.BigInt(pool.liquidity.toString()), pool.tick, new TickListDataProvider(ticks, pool.tickSpacing));
}

describe('concentrated pools on chain: the engine against QuoterV2 and the Algebra pools, to the wei', () => {
  let chain: OnchainChain;
  let actor: Address;
  let actorAbi: Abi;
  let tokens: Address[];
  let v3Factory: Address;
  let quoter: Address;
  let algebraFactory: Address;

  const deploy = (a: Artifact, args: readonly unknown[] = []) => chain.deploy(a, args);
  const send = (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => chain.send(address, abi, functionName, args);

  beforeAll(async () => {
    // The test actor of libs/testing (ConcentratedActor.sol): set-ups, reads and batches of quotes in one call each.
    const compiled = await compileConcentratedActor();
    actorAbi = compiled.abi;
    chain = await startOnchainChain();
    const { client, account } = chain;

    actor = await deploy(compiled);
    // 21 tokens: 210 pairs, a pair per pool of each kind.
    tokens = [];
    for (let i = 0; i < 21; i++) {
      const token = await deploy(artifact({ abi: testERC20Abi, bytecode: testERC20Bytecode }), [`Token ${i}`, `T${i}`, 18]);
      await send(token, testERC20Abi as Abi, 'mint', [actor, 1n << 220n]);
      tokens.push(token);
    }

    v3Factory = await deploy(artifact(v3FactoryArtifact));
    await send(v3Factory, v3FactoryArtifact.abi as Abi, 'enableFeeAmount', [100, 1]);
    quoter = await deploy(artifact(quoterV2Artifact), [v3Factory, tokens[0]]);

    // The Algebra factory and pool deployer each take the other's address: the deployer's is computed from the
    // deploying account's nonce (the factory first, the deployer next).
    const nonce = await client.getTransactionCount({ address: account.address });
    const deployerAddress = getContractAddress({ from: account.address, nonce: BigInt(nonce + 1) });
    algebraFactory = await deploy(artifact(algebraFactoryArtifact), [deployerAddress]);
    expect(await deploy(artifact(algebraDeployerArtifact), [algebraFactory])).toBe(deployerAddress);
    // The actor sets each pool's fee and tick spacing: it needs the pools administrator role.
    await send(algebraFactory, algebraFactoryArtifact.abi as Abi, 'grantRole', [keccak256(toHex('POOLS_ADMINISTRATOR')), actor]);
  });

  afterAll(async () => {
    await chain?.node.stop();
  });

  const pairs = (): [Address, Address][] => tokens.flatMap((a, i) => tokens.slice(i + 1).map((b) => [a, b] as [Address, Address]));

  interface PoolSetUp {
    readonly kind: Kind;
    readonly pair: [Address, Address];
    readonly fee: number;
    readonly plan: PoolPlan;
    readonly functionName: 'setUpV3' | 'setUpAlgebra';
    readonly args: readonly unknown[];
  }

  /**
   * The actor call that sets up a pool: create, initialize (fee and spacing for Algebra), positions, and for a
   * third of the pools a first trade, to an initialized tick's price (ending on it, crossed) or of a random input.
   */
  function planSetUp(kind: Kind, random: Random, pair: [Address, Address], fee: number, plan: PoolPlan): PoolSetUp {
    const positions = plan.positions.map((p) => ({ lower: p.lower, upper: p.upper, liquidity: p.liquidity }));
    const ticks = ticksOf(plan.positions);
    let move = { active: false, zeroForOne: false, amount: 0n, limit: 0n };
    if (random() < 0.35) {
      const zeroForOne = random() < 0.5;
      const liquidity = positions.reduce((s, p) => (p.lower <= plan.tick && plan.tick < p.upper ? s + p.liquidity : s), 0n);
      const state = engineState({ sqrtPriceX96: plan.sqrtPriceX96, tick: plan.tick, liquidity, fee, tickSpacing: plan.tickSpacing, ticks });
      const swap = kind === 'algebra' ? swapAlgebra : swapUniswapV3;
      const beyond = ticks.filter((t) => (zeroForOne ? t.index <= plan.tick : t.index > plan.tick));
      if (beyond.length > 0 && random() < 0.5) {
        const target = pick(random, beyond).index;
        const limit = state.ticks.ratio(state.ticks.atOrBelow(target));
        const inside = limit > MIN_SQRT_RATIO && limit < MAX_SQRT_RATIO;
        if (inside && (zeroForOne ? limit < plan.sqrtPriceX96 : limit > plan.sqrtPriceX96)) move = { active: true, zeroForOne, amount: 1n << 200n, limit };
      } else {
        let whole = 0n;
        try {
          whole = swap(state, zeroForOne, 1n << 250n).amountIn;
        } catch {
          whole = 0n;
        }
        if (whole > 0n) move = { active: true, zeroForOne, amount: randomAmount(random, whole / 2n), limit: 0n };
      }
    }
    return kind === 'uniswap-v3'
      ? { kind, pair, fee, plan, functionName: 'setUpV3', args: [v3Factory, pair[0], pair[1], fee, plan.sqrtPriceX96, positions, move] }
      : { kind, pair, fee, plan, functionName: 'setUpAlgebra', args: [algebraFactory, pair[0], pair[1], fee, plan.tickSpacing, plan.sqrtPriceX96, positions, move] };
  }

  /** Sends the set-ups one after the other without waiting (anvil mines each at once), then waits for them all. */
  async function setUpPools(setUps: readonly PoolSetUp[]): Promise<(UniswapV3PoolSnapshot | AlgebraPoolSnapshot)[]> {
    const receipts = await sendAll(chain, setUps.map((u) => ({ address: actor, abi: actorAbi, functionName: u.functionName, args: u.args })));
    return inParallel(setUps, 8, async (u, i) => {
      expect({ setUp: u.args, status: receipts[i].status }).toEqual({ setUp: u.args, status: 'success' });
      return readPool(u, receipts[i].logs);
    });
  }

  /** A pool's state read back from the chain into an engine snapshot (checking the ticks hold what was minted). */
  async function readPool(u: PoolSetUp, logs: Log[]): Promise<UniswapV3PoolSnapshot | AlgebraPoolSnapshot> {
    const { kind, pair, fee, plan } = u;
    const ticks = ticksOf(plan.positions);
    const [created] = parseEventLogs({
      abi: (kind === 'uniswap-v3' ? v3FactoryArtifact.abi : algebraFactoryArtifact.abi) as Abi,
      logs,
      eventName: (kind === 'uniswap-v3' ? 'PoolCreated' : 'Pool') as never,
    }) as unknown as { args: { pool: Address } }[];
    const poolAddress = getAddress(created.args.pool);
    const indices = ticks.map((t) => t.index);
    const [token0, token1] = BigInt(pair[0]) < BigInt(pair[1]) ? pair : [pair[1], pair[0]];
    const base = { address: poolAddress, routerIndex: kind === 'algebra' ? 6 : 5, token0, token1, decimals0: 18, decimals1: 18 };
    if (kind === 'uniswap-v3') {
      const [sqrtPriceX96, tick, liquidity, nets, initialized] = (await chain.client.readContract({ address: actor, abi: actorAbi, functionName: 'readV3', args: [poolAddress, indices] })) as [bigint, number, bigint, bigint[], boolean[]];
      expect(initialized.every(Boolean)).toBe(true);
      expect(nets).toEqual(ticks.map((t) => t.liquidityNet));
      return { ...base, kind: 'uniswap-v3', sqrtPriceX96, tick, liquidity, fee, tickSpacing: plan.tickSpacing, ticks: indices.map((index, i) => ({ index, liquidityNet: nets[i] })) };
    }
    const [price, tick, lastFee, spacing, liquidity, deltas, initialized] = (await chain.client.readContract({ address: actor, abi: actorAbi, functionName: 'readAlgebra', args: [poolAddress, indices] })) as [bigint, number, number, number, bigint, bigint[], boolean[]];
    expect([lastFee, spacing]).toEqual([fee, plan.tickSpacing]);
    expect(initialized.every(Boolean)).toBe(true);
    expect(deltas).toEqual(ticks.map((t) => t.liquidityNet));
    return { ...base, kind: 'algebra', sqrtPriceX96: price, tick, liquidity, fee: lastFee, tickSpacing: spacing, ticks: indices.map((index, i) => ({ index, liquidityNet: deltas[i] })) };
  }

  function engineState(s: Omit<ConcentratedPoolState, 'ticks'> & { ticks: readonly { index: number; liquidityNet: bigint }[] }): ConcentratedPoolState {
    return { ...s, ticks: new TickTable(s.ticks) };
  }

  /** Random swaps for a pool: half each way, exact input and output alternating, sized on what the pool holds. */
  function swapsFor(random: Random, kind: Kind, pool: UniswapV3PoolSnapshot | AlgebraPoolSnapshot): Quote[] {
    const state = engineState(pool);
    const swap = kind === 'algebra' ? swapAlgebra : swapUniswapV3;
    const quotes: Quote[] = [];
    for (const zeroForOne of [true, false]) {
      let whole: SwapResult | undefined;
      try {
        whole = swap(state, zeroForOne, 1n << 250n);
      } catch {
        whole = undefined;
      }
      for (let i = 0; i < SWAPS_PER_POOL / 2; i++) {
        const exactInput = i % 2 === 0;
        const scale = whole ? (exactInput ? whole.amountIn : whole.amountOut) : 10n ** 18n;
        quotes.push({ zeroForOne, exactInput, amount: randomAmount(random, scale) });
      }
    }
    return quotes;
  }

  async function quoteOnChain(kind: Kind, pool: UniswapV3PoolSnapshot | AlgebraPoolSnapshot, quotes: Quote[]): Promise<Outcome[]> {
    const args = kind === 'uniswap-v3' ? [quoter, pool.address, pool.fee, quotes] : [pool.address, quotes];
    const { result } = await chain.client.simulateContract({
      address: actor,
      abi: actorAbi,
      functionName: kind === 'uniswap-v3' ? 'quoteV3' : 'quoteAlgebra',
      args,
      account: chain.account.address,
      gas: CALL_GAS,
    });
    return result as Outcome[];
  }

  it.each(['uniswap-v3', 'algebra'] as const)('%s: 10,000 random swaps equal to the wei', async (kind) => {
    const random = mulberry32(kind === 'algebra' ? 1702 : 1703);
    const started = Date.now();
    const plans = pairs()
      .slice(0, POOLS_PER_KIND)
      .map((pair) => {
        if (kind === 'uniswap-v3') {
          const { fee, tickSpacing } = pick(random, V3_TIERS);
          return { pair, fee, plan: randomPool(random, tickSpacing) };
        }
        const fee = pick(random, [0, 1, 100, 500, 2500, 3000, 10000, int(random, 0, 65535)]);
        const tickSpacing = pick(random, [1, 10, 60, 200, int(random, 1, 500)]);
        return { pair, fee, plan: randomPool(random, tickSpacing) };
      });
    const pools = await setUpPools(plans.map(({ pair, fee, plan }) => planSetUp(kind, random, pair, fee, plan)));
    const setUp = Date.now();

    const batches = pools.map((pool) => swapsFor(random, kind, pool));
    const outcomes = await inParallel(pools, 8, (pool, i) => quoteOnChain(kind, pool, batches[i]));
    const quoted = Date.now();

    const swap = kind === 'algebra' ? swapAlgebra : swapUniswapV3;
    const tally = { swaps: 0, partial: 0, crossed: 0, reverts: 0, legChecks: 0 };
    pools.forEach((pool, p) => {
      const state = engineState(pool);
      const legs = legsOf(pool) as ConcentratedLeg[];
      batches[p].forEach((q, i) => {
        const chain = outcomes[p][i];
        let engine: SwapResult | undefined;
        try {
          engine = swap(state, q.zeroForOne, q.exactInput ? q.amount : -q.amount);
        } catch {
          engine = undefined;
        }
        const context = { pool: pool.address, kind, quote: q, chain, engine };
        tally.swaps++;
        if (!engine) {
          tally.reverts++;
          expect({ ...context, ok: chain.ok }).toEqual({ ...context, ok: false });
          return;
        }
        const partial = q.exactInput ? engine.amountIn < q.amount : engine.amountOut < q.amount;
        if (partial) tally.partial++;
        if (engine.liquidity !== pool.liquidity) tally.crossed++;
        if (kind === 'uniswap-v3') {
          if (engine.amountIn === 0n && engine.amountOut === 0n) {
            // A swap wholly within ranges without liquidity: QuoterV2 refuses it ("not supported").
            expect({ ...context, ok: chain.ok }).toEqual({ ...context, ok: false });
          } else if (q.exactInput) {
            // QuoterV2 answers the output of what the pool took (all of it, or up to the price limit).
            expect({ ...context, got: [chain.ok, chain.amountOut, chain.sqrtPriceAfter] }).toEqual({ ...context, got: [true, engine.amountOut, engine.sqrtPriceX96] });
          } else if (partial) {
            // QuoterV2 refuses an exact output the pool cannot pay in full.
            expect({ ...context, ok: chain.ok }).toEqual({ ...context, ok: false });
          } else {
            expect({ ...context, got: [chain.ok, chain.amountIn, chain.sqrtPriceAfter] }).toEqual({ ...context, got: [true, engine.amountIn, engine.sqrtPriceX96] });
          }
        } else {
          expect({ ...context, got: [chain.ok, chain.amountIn, chain.amountOut, chain.sqrtPriceAfter] }).toEqual({
            ...context,
            got: [true, engine.amountIn, engine.amountOut, engine.sqrtPriceX96],
          });
          // The leg quotes what the pool pays for an input it takes whole, 0 for one it does not.
          if (q.exactInput) {
            const leg = legs.find((l) => (l.tokenIn === pool.token0) === q.zeroForOne);
            if (leg) {
              expect(leg.quote(q.amount)).toBe(chain.amountIn === q.amount ? chain.amountOut : 0n);
              tally.legChecks++;
            }
          }
        }
      });
    });
    const checked = Date.now();
    // Uniswap's V3 SDK on the same states (tick spacings from 10: on spacing 1 the SDK's word-by-word walk to the
    // price limit takes tens of milliseconds per swap in JSBI).
    let sdkSwaps = 0;
    if (kind === 'uniswap-v3') {
      for (const [p, pool] of pools.entries()) {
        if (pool.kind !== 'uniswap-v3' || pool.tickSpacing < 10) continue;
        const sdk = sdkPool(pool);
        const state = engineState(pool);
        for (const q of batches[p]) {
          const engine = swapUniswapV3(state, q.zeroForOne, q.exactInput ? q.amount : -q.amount);
          const [tokenIn, tokenOut] = q.zeroForOne ? [SDK_TOKEN0, SDK_TOKEN1] : [SDK_TOKEN1, SDK_TOKEN0];
          const [amount, after] = q.exactInput
            ? await sdk.getOutputAmount(CurrencyAmount.fromRawAmount(tokenIn, q.amount.toString()))
            : await sdk.getInputAmount(CurrencyAmount.fromRawAmount(tokenOut, q.amount.toString()));
          const context = { pool: pool.address, quote: q };
          expect({ ...context, sdk: [amount.quotient.toString(), after.sqrtRatioX96.toString()] }).toEqual({
            ...context,
            sdk: [String(q.exactInput ? engine.amountOut : engine.amountIn), String(engine.sqrtPriceX96)],
          });
          sdkSwaps++;
        }
      }
      expect(sdkSwaps).toBeGreaterThan(5_000);
    }
    const sdkDone = Date.now();
    console.log(
      `${kind}: ${tally.swaps} swaps on ${pools.length} pools (${tally.crossed} crossing ticks, ${tally.partial} past the last tick, ${tally.reverts} reverting on both); ` +
        `set-up ${setUp - started} ms, on-chain quotes ${quoted - setUp} ms, engine ${checked - quoted} ms` +
        (sdkSwaps > 0 ? `; ${sdkSwaps} of them through @uniswap/v3-sdk too, ${sdkDone - checked} ms` : ''),
    );
    expect(tally.swaps).toBeGreaterThanOrEqual(10_000);
    expect(tally.crossed).toBeGreaterThan(tally.swaps / 10);
    expect(tally.partial).toBeGreaterThan(tally.swaps / 50);
    expect(tally.reverts).toBeLessThan(tally.swaps / 100);
  });
});
