import { algebraPoolAbi, curveStableSwapNGStandInAbi, curveTwocryptoNGStandInAbi, stablePoolAbi, stateViewAbi, testERC20Abi, uniswapV2PairAbi, uniswapV3PoolAbi, wrappedNativeAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, encodeExecuteSwaps, shortMessage, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { devAccount, Random, type DevAccount, type ScaleDeployment, type ScalePool } from '@dex/devnet-kit';
import type { ManifestChain } from '@dex/messages';
import { encodeUniswapV4PoolKey, getAmountOut } from '@dex/routing';
import { encodeFunctionData, erc20Abi, maxUint256, parseEther, parseGwei, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { SimulatorLogger } from './simulator';

/**
 * Dev accounts the scale trader sends from: derivation indexes 10 to 13 of the dev mnemonic, which no other
 * role uses (anvil does not fund them: the trader gives them native coin itself).
 */
export const SCALE_TRADER_ACCOUNT_INDEXES = [10, 11, 12, 13] as const;

export function scaleTraderAccounts(): DevAccount[] {
  return SCALE_TRADER_ACCOUNT_INDEXES.map((index, n) => ({ ...devAccount(index), role: `scale-trader-${n + 1}` }));
}

export interface ScaleTraderOptions {
  readonly chain: ManifestChain;
  readonly scale: ScaleDeployment;
  /** Funded with every scale token by `deployScale` (its `traders`). */
  readonly accounts: readonly DevAccount[];
  /** Swaps sent for each new block. */
  readonly swapsPerBlock: number;
  readonly seed: number;
  readonly logger: SimulatorLogger;
  /** How often a summary is logged (default one minute). */
  readonly summaryIntervalMs?: number;
}

const SWAP_GAS = 400_000n;
const Q96 = 1n << 96n;

/** What the trader knows a pool by: its address, a V4 pool's PoolId (every V4 pool's address is its PoolManager's). */
const poolKey = (p: ScalePool): string => p.poolId ?? p.address;

/** Whether the pool is a Curve NG pool (StableswapNG or TwocryptoNG), traded by coin index. */
const isCurve = (p: ScalePool): boolean => p.kind === 'curve-stableswap-ng' || p.kind === 'curve-twocrypto-ng';

/** A Curve pool's ABI: StableswapNG's indexes coins by int128, TwocryptoNG's by uint256 (both take bigints here). */
const curveAbi = (p: ScalePool): Abi => (p.kind === 'curve-stableswap-ng' ? curveStableSwapNGStandInAbi : curveTwocryptoNGStandInAbi) as Abi;

/**
 * RouterV2's swap data for the pool: a V4 pool's key, nothing for the others (for a Curve pool, nothing: the router
 * pays the pool and calls `exchange_received`, the coins' indexes found through the source's factory).
 */
function swapData(p: ScalePool): Hex {
  if (p.kind !== 'uniswap-v4' || !p.currency0 || !p.currency1 || !p.hooks || p.fee === undefined || p.tickSpacing === undefined) return '0x';
  return encodeUniswapV4PoolKey({ currency0: p.currency0, currency1: p.currency1, fee: p.fee, tickSpacing: p.tickSpacing, hooks: p.hooks });
}
const FEES = { maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei('1') };
const BPS = 10_000n;

interface Sender {
  readonly account: DevAccount;
  readonly wallet: ChainWalletClient;
  nonce: number;
}

/**
 * The scale profile's trading: for every new block, `swapsPerBlock` swaps through RouterV2 on random V2, stable,
 * Uniswap V3, Algebra, Uniswap V4 and Curve NG pools of the scale profile, each its own transaction, sent without
 * waiting for one another (nonces counted here) so they land in the next block together. Sizes are 1 to 10 bps of the
 * pool's input reserve (a concentrated pool's balance of the token; a V4 pool's virtual reserve at its price, L / sqrtP
 * and L * sqrtP, the PoolManager holding every V4 pool's tokens together; a Curve pool's `balances(i)` of a random coin
 * pair i -> j), as last read or estimated from the trader's own swaps, with 3% of slippage allowed; a concentrated or V4
 * swap's output is estimated at the pool's last-read spot price less its fee (a V4 pool's LP fee from slot0: a dynamic
 * one is its hook's), a Curve swap's is the pool's own `get_dy`, read just before the swap is sent. The accounts also
 * hold and approve the wrapped native token, which V4 pools of the native coin trade.
 */
export class ScaleTrader {
  private readonly client: ChainPublicClient;
  private readonly senders: Sender[];
  private readonly pools: ScalePool[];
  /** By pool (`poolKey`): its reserves, and a concentrated or V4 pool's sqrt price (Q64.96) and a V4 pool's LP fee as last read. */
  private readonly reserves = new Map<string, [bigint, bigint]>();
  private readonly sqrtPrices = new Map<string, bigint>();
  private readonly lpFees = new Map<string, bigint>();
  /** By Curve pool: its `balances(i)` of every coin, as last read or estimated from the trader's own swaps. */
  private readonly curveBalances = new Map<string, bigint[]>();
  private readonly fees = new Map<number, bigint>();
  private readonly rng: Random;
  /** The V4 source's StateView, where V4 pools' prices and liquidity are read. */
  private readonly stateView?: Address;
  private timer?: NodeJS.Timeout;
  private lastBlock = 0n;
  private busy = false;
  private stopped = false;
  /** The reserves' read in flight after a summary, if any. */
  private refresh?: Promise<void>;
  private tally = { blocks: 0, sent: 0, failed: 0 };
  private lastSummary = Date.now();

  constructor(private readonly options: ScaleTraderOptions) {
    const { chain } = options;
    this.client = createChainClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3, pollingIntervalMs: 100 });
    this.senders = options.accounts.map((account) => ({
      account,
      wallet: createChainWalletClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, account: privateKeyToAccount(account.privateKey as Hex) }),
      nonce: 0,
    }));
    this.pools = options.scale.pools.filter((p) => p.kind !== 'core');
    this.stateView = chain.sources.find((s) => s.kind === 'uniswap-v4')?.addresses.stateView as Address | undefined;
    for (const s of chain.sources) if (s.feeBps !== undefined) this.fees.set(s.routerIndex, BigInt(s.feeBps));
    this.rng = new Random(options.seed);
  }

  /**
   * Gives the accounts native coin for gas and approves RouterV2 for every scale token from each (sent back to
   * back, receipts checked at the end), and reads every pool's reserves.
   */
  async prepare(): Promise<void> {
    for (const s of this.senders) {
      await this.client.request({ method: 'anvil_setBalance' as never, params: [s.account.address, `0x${parseEther('1000000').toString(16)}`] as never });
    }
    await this.resyncNonces();
    const hashes: Hex[] = [];
    const wrapped = this.options.chain.wrappedNative.address as Address;
    for (const s of this.senders) {
      for (const token of this.options.scale.tokens) {
        const data = encodeFunctionData({ abi: testERC20Abi, functionName: 'approve', args: [this.options.chain.routerV2, maxUint256] });
        hashes.push(await this.send(s, token.address, data, 100_000n));
      }
      // The wrapped native token, which the V4 pools of the native coin trade: some wrapped, and approved.
      hashes.push(await this.send(s, wrapped, encodeFunctionData({ abi: wrappedNativeAbi, functionName: 'deposit' }), 100_000n, parseEther('100000')));
      hashes.push(await this.send(s, wrapped, encodeFunctionData({ abi: testERC20Abi, functionName: 'approve', args: [this.options.chain.routerV2, maxUint256] }), 100_000n));
    }
    for (const hash of hashes) {
      const receipt = await this.client.waitForTransactionReceipt({ hash, timeout: 120_000 });
      if (receipt.status !== 'success') throw new Error(`approval ${hash} reverted`);
    }
    await this.readReserves();
    this.lastBlock = await this.client.getBlockNumber();
  }

  start(): void {
    if (this.stopped || this.timer) return;
    this.options.logger.log({ msg: 'scale trader started', chainId: this.options.chain.chainId, pools: this.pools.length, swapsPerBlock: this.options.swapsPerBlock, accounts: this.senders.length });
    this.timer = setInterval(() => void this.tick(), 100);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
    await this.refresh;
  }

  private async readReserves(): Promise<void> {
    const concentrated = (p: ScalePool) => p.kind === 'uniswap-v3' || p.kind === 'algebra';
    const stateView = this.stateView;
    const reads = await this.client.multicall({
      allowFailure: true,
      contracts: this.pools.flatMap((p): readonly { address: Address; abi: Abi; functionName: string; args?: readonly unknown[] }[] =>
        isCurve(p)
          ? (p.coins ?? []).map((_, k) => ({ address: p.address, abi: curveAbi(p), functionName: 'balances', args: [BigInt(k)] }))
          : p.kind === 'uniswap-v4'
          ? stateView && p.poolId
            ? [
                { address: stateView, abi: stateViewAbi as Abi, functionName: 'getSlot0', args: [p.poolId] },
                { address: stateView, abi: stateViewAbi as Abi, functionName: 'getLiquidity', args: [p.poolId] },
              ]
            : []
          : concentrated(p)
          ? [
              { address: p.token0, abi: erc20Abi as Abi, functionName: 'balanceOf', args: [p.address] },
              { address: p.token1, abi: erc20Abi as Abi, functionName: 'balanceOf', args: [p.address] },
              p.kind === 'uniswap-v3'
                ? { address: p.address, abi: uniswapV3PoolAbi as Abi, functionName: 'slot0' }
                : { address: p.address, abi: algebraPoolAbi as Abi, functionName: 'globalState' },
            ]
          : [{ address: p.address, abi: (p.kind === 'stable' ? stablePoolAbi : uniswapV2PairAbi) as Abi, functionName: 'getReserves' }],
      ),
    } as never);
    let at = 0;
    for (const p of this.pools) {
      const key = poolKey(p);
      if (isCurve(p)) {
        const n = p.coins?.length ?? 0;
        const balances = reads.slice(at, at + n) as { status: string; result?: unknown }[];
        at += n;
        if (n >= 2 && balances.every((b) => b.status === 'success')) this.curveBalances.set(key, balances.map((b) => BigInt(b.result as bigint)));
        continue;
      }
      if (p.kind === 'uniswap-v4') {
        if (!stateView || !p.poolId) continue;
        const [slot0, liquidity] = [reads[at], reads[at + 1]] as { status: string; result?: unknown }[];
        at += 2;
        if (slot0.status !== 'success' || liquidity.status !== 'success') continue;
        const [sqrtPrice, , , lpFee] = slot0.result as readonly [bigint, number, number, number];
        const L = BigInt(liquidity.result as bigint);
        if (sqrtPrice === 0n || L === 0n) continue;
        this.reserves.set(key, [(L * Q96) / sqrtPrice, (L * sqrtPrice) / Q96]);
        this.sqrtPrices.set(key, sqrtPrice);
        this.lpFees.set(key, BigInt(lpFee));
        continue;
      }
      if (concentrated(p)) {
        const [b0, b1, state] = [reads[at], reads[at + 1], reads[at + 2]] as { status: string; result?: unknown }[];
        at += 3;
        if (b0.status !== 'success' || b1.status !== 'success' || state.status !== 'success') continue;
        this.reserves.set(key, [BigInt(b0.result as bigint), BigInt(b1.result as bigint)]);
        this.sqrtPrices.set(key, BigInt((state.result as readonly [bigint])[0]));
        continue;
      }
      const r = reads[at++] as { status: string; result?: readonly bigint[] };
      if (r.status === 'success') this.reserves.set(key, [BigInt(r.result![0]), BigInt(r.result![1])]);
    }
  }

  /** On a new block: the block's swaps, one per transaction, spread over the accounts. */
  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      const head = await this.client.getBlockNumber();
      if (head <= this.lastBlock) return;
      this.lastBlock = head;
      this.tally.blocks += 1;
      const bySender = new Map<Sender, (() => Promise<unknown>)[]>();
      for (let i = 0; i < this.options.swapsPerBlock; i++) {
        const sender = this.senders[i % this.senders.length];
        const swap = this.nextSwap(sender);
        if (swap) bySender.set(sender, [...(bySender.get(sender) ?? []), swap]);
      }
      // Each account's transactions go out in nonce order; the accounts in parallel.
      const failedBefore = this.tally.failed;
      await Promise.all(
        [...bySender.values()].map(async (list) => {
          for (const send of list) {
            await send()
              .then(() => (this.tally.sent += 1))
              .catch(() => (this.tally.failed += 1));
          }
        }),
      );
      // A refused transaction leaves a gap in its account's nonces: count them again from the node.
      if (this.tally.failed > failedBefore) await this.resyncNonces();
      this.summarize();
    } catch (err) {
      this.options.logger.warn({ msg: 'scale trader tick failed', chainId: this.options.chain.chainId, error: shortMessage(err) });
      await this.resyncNonces().catch(() => undefined);
    } finally {
      this.busy = false;
    }
  }

  /** A random swap on a random pool, or undefined when the pool's reserves are unknown. */
  private nextSwap(sender: Sender): (() => Promise<Hex>) | undefined {
    const pool = this.rng.pick(this.pools);
    if (isCurve(pool)) return this.nextCurveSwap(sender, pool);
    const key = poolKey(pool);
    const reserves = this.reserves.get(key);
    if (!reserves) return undefined;
    const zeroIn = this.rng.chance(0.5);
    const [reserveIn, reserveOut] = zeroIn ? reserves : [reserves[1], reserves[0]];
    const amountIn = this.rng.bpsOf(reserveIn, 1, 10);
    if (amountIn === 0n) return undefined;
    const estimate = this.estimate(pool, zeroIn, amountIn, reserveIn, reserveOut);
    if (estimate === 0n) return undefined;
    const [tokenIn, tokenOut] = zeroIn ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    // The trader's own swap moves the pool; other swaps are caught at the next read.
    this.reserves.set(key, zeroIn ? [reserves[0] + amountIn, reserves[1] - estimate] : [reserves[0] - estimate, reserves[1] + amountIn]);
    const minOut = (estimate * (BPS - 300n)) / BPS;
    const data = encodeExecuteSwaps({
      tokens: [tokenIn, tokenOut],
      amountIn,
      minAmountOut: minOut,
      expectedAmountOut: minOut,
      hopSwaps: [[{ pool: pool.address, tokenIn, tokenOut, routerIndex: pool.routerIndex, amountIn, data: swapData(pool) }]],
      feeBps: 0,
    });
    return () => this.send(sender, this.options.chain.routerV2, data, SWAP_GAS);
  }

  /**
   * A swap of a random coin pair i -> j of a Curve pool, 1 to 10 bps of its balance of coin i, or undefined when its
   * balances are unknown. Its output is the pool's `get_dy`, read when the swap is sent (the swap is not sent when that
   * fails or is zero; it counts as failed).
   */
  private nextCurveSwap(sender: Sender, pool: ScalePool): (() => Promise<Hex>) | undefined {
    const key = poolKey(pool);
    const balances = this.curveBalances.get(key);
    const coins = pool.coins;
    if (!balances || !coins || coins.length < 2 || balances.length !== coins.length) return undefined;
    const i = this.rng.int(0, coins.length - 1);
    const j = (i + this.rng.int(1, coins.length - 1)) % coins.length;
    const amountIn = this.rng.bpsOf(balances[i], 1, 10);
    if (amountIn === 0n) return undefined;
    const [tokenIn, tokenOut] = [coins[i], coins[j]];
    return async () => {
      const estimate = (await this.client.readContract({ address: pool.address, abi: curveAbi(pool), functionName: 'get_dy', args: [BigInt(i), BigInt(j), amountIn] })) as bigint;
      if (estimate === 0n || estimate >= balances[j]) throw new Error(`Curve pool ${pool.address}: no output for ${amountIn} of coin ${i}`);
      // The trader's own swap moves the pool; other swaps are caught at the next read.
      balances[i] += amountIn;
      balances[j] -= estimate;
      const minOut = (estimate * (BPS - 300n)) / BPS;
      const data = encodeExecuteSwaps({
        tokens: [tokenIn, tokenOut],
        amountIn,
        minAmountOut: minOut,
        expectedAmountOut: minOut,
        hopSwaps: [[{ pool: pool.address, tokenIn, tokenOut, routerIndex: pool.routerIndex, amountIn, data: swapData(pool) }]],
        feeBps: 0,
      });
      return this.send(sender, this.options.chain.routerV2, data, SWAP_GAS);
    };
  }

  /**
   * The swap's expected output: the V2 or stable formula on the reserves (for stable pools, the constant-product one
   * at the source's fee, an estimate); for a concentrated or V4 pool, its last spot price less its fee (pips: a V4
   * pool's LP fee as slot0 last said).
   */
  private estimate(pool: ScalePool, zeroIn: boolean, amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
    const key = poolKey(pool);
    const sqrtPrice = this.sqrtPrices.get(key);
    if (sqrtPrice === undefined || (pool.kind !== 'uniswap-v3' && pool.kind !== 'algebra' && pool.kind !== 'uniswap-v4')) {
      return getAmountOut(amountIn, reserveIn, reserveOut, this.fees.get(pool.routerIndex) ?? 30n);
    }
    const q192 = 1n << 192n;
    const gross = zeroIn ? (amountIn * sqrtPrice * sqrtPrice) / q192 : (amountIn * q192) / (sqrtPrice * sqrtPrice);
    const fee = this.lpFees.get(key) ?? BigInt(pool.fee ?? 3000);
    const out = (gross * (1_000_000n - fee)) / 1_000_000n;
    return out < reserveOut ? out : 0n;
  }

  private async resyncNonces(): Promise<void> {
    for (const s of this.senders) s.nonce = await this.client.getTransactionCount({ address: s.account.address, blockTag: 'pending' });
  }

  private async send(sender: Sender, to: Address, data: Hex, gas: bigint, value = 0n): Promise<Hex> {
    const nonce = sender.nonce++;
    return sender.wallet.sendTransaction({ to, data, gas, nonce, value, ...FEES } as never);
  }

  private summarize(): void {
    if (Date.now() - this.lastSummary < (this.options.summaryIntervalMs ?? 60_000)) return;
    this.lastSummary = Date.now();
    this.options.logger.log({ msg: 'scale trader', chainId: this.options.chain.chainId, ...this.tally });
    this.tally = { blocks: 0, sent: 0, failed: 0 };
    // Off the tick's path, but `stop` waits for it: nothing of the trader runs after it stopped.
    this.refresh ??= this.readReserves()
      .catch(() => undefined)
      .finally(() => (this.refresh = undefined));
  }
}
