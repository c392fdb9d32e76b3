import { algebraPoolAbi, ammPoolAbi, ammRouterAbi, launchpadAbi, routerV2Abi, settablePriceOracleAbi, stablePoolAbi, stateViewAbi, uniswapV2PairAbi, uniswapV3PoolAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, revertName, shortMessage, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { encodePoolKey, Random, type DevAccount } from '@dex/devnet-kit';
import type { ManifestChain, ManifestPool, ManifestUniswapV4Pool } from '@dex/messages';
import { getAmountOut, swapHookPermissions } from '@dex/routing';
import { erc20Abi, formatUnits, getAddress, maxUint256, parseEventLogs, parseUnits, zeroAddress, type Abi, type Address, type Hash, type Hex, type TransactionReceipt } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

/** What the simulator does, one per tick and chain. */
export const ACTION_KINDS = ['v2-swap', 'stable-swap', 'core-swap', 'concentrated-swap', 'v4-swap', 'transfer', 'launchpad-trade', 'launch-token', 'oracle-move'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/**
 * How often each action is drawn (relative weights). Launching a token adds a token to every list, so it is
 * rare: about one tick in two hundred.
 */
export const DEFAULT_ACTION_WEIGHTS: Readonly<Record<ActionKind, number>> = {
  'v2-swap': 24,
  'stable-swap': 14,
  'core-swap': 24,
  'concentrated-swap': 20,
  'v4-swap': 12,
  transfer: 14,
  'launchpad-trade': 14,
  'oracle-move': 10,
  'launch-token': 0.5,
};

/** Pool swaps take this range of the input reserve, in basis points: small enough that prices stay put. */
export const SWAP_SIZE_BPS = [5, 30] as const;
/**
 * Concentrated-pool swaps take this range of the pool's balance of the input token, in basis points: these pools hold
 * little capital for their depth, so a swap of this size moves the price across a few initialized ticks.
 */
export const CONCENTRATED_SWAP_SIZE_BPS = [10, 150] as const;
/**
 * V4 swaps take this range of the pool's virtual reserve of the input token at its price (liquidity / sqrt price, or
 * times it), in basis points: the pool's balance is not its own (the PoolManager holds every pool's), and the virtual
 * reserve is far above what its positions hold, so the range is narrower than for the V3 and Algebra pools.
 */
export const V4_SWAP_SIZE_BPS = [2, 20] as const;
const Q96 = 1n << 96n;
/** Ticks of drift from the first tick seen that tilt a concentrated swap's direction fully (to 15:85). */
const TICK_DRIFT_SCALE = 500;
/** Largest oracle price step per move, in basis points. */
export const ORACLE_STEP_BPS = 5;
/** How far an oracle price may wander from where it started, in basis points: dollar-pegged tokens, others. */
export const ORACLE_BAND_BPS = { pegged: 20, floating: 200 } as const;
/** Swaps accept this much less than quoted, in basis points (someone else may trade in between). */
const SLIPPAGE_BPS = 100n;
/** How many of the newest launchpad tokens a trade picks from. */
const LAUNCHPAD_RECENT = 20n;

export type ActionResult =
  | { chainId: number; kind: ActionKind; ok: true; txHash: Hash; detail: Record<string, string | number | boolean> }
  | { chainId: number; kind: ActionKind; ok: false; error: string; revert?: string };

type Outcome = { receipt: TransactionReceipt; detail: Record<string, string | number | boolean> };

interface TokenInfo {
  readonly symbol: string;
  readonly decimals: number;
}

const ADJECTIVES = ['Lucky', 'Sleepy', 'Brave', 'Fuzzy', 'Swift', 'Quiet', 'Jolly', 'Mighty', 'Tiny', 'Cosmic', 'Golden', 'Salty'];
const ANIMALS = ['Otter', 'Panda', 'Falcon', 'Badger', 'Koala', 'Lynx', 'Gecko', 'Walrus', 'Heron', 'Moose', 'Puffin', 'Yak'];

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
/** `value` scaled to 18 decimals. */
const to18 = (value: bigint, decimals: number) => (decimals <= 18 ? value * 10n ** BigInt(18 - decimals) : value / 10n ** BigInt(decimals - 18));

/**
 * One chain's share of the simulator: draws an action, sends it from one of the simulator accounts, waits for
 * its receipt. One action at a time per chain, so the accounts' nonces never race. Prices and pool balances are
 * kept near where they started: swap directions lean towards undoing earlier drift, and oracle moves are a
 * random walk pulled back towards, and bounded around, the first price seen.
 */
export class ChainSimulator {
  readonly chainId: number;
  private readonly client: ChainPublicClient;
  private readonly wallet: ChainWalletClient;
  private readonly signers: readonly { account: DevAccount; signer: PrivateKeyAccount }[];
  private readonly weights: Record<ActionKind, number>;
  private readonly tokens = new Map<Address, TokenInfo>();
  /** Reserve ratio (token0 over token1, in 18 decimals each) of each pool when first seen. */
  private readonly poolAnchors = new Map<Address, bigint>();
  /** Tick of each concentrated pool when first seen. */
  private readonly tickAnchors = new Map<Address, number>();
  /** Oracle price of each token when first seen. */
  private readonly priceAnchors = new Map<Address, bigint>();
  /** (account, token, spender) triples already approved for the maximum. */
  private readonly approved = new Set<string>();

  constructor(
    private readonly chain: ManifestChain,
    accounts: readonly DevAccount[],
    /** Other dev accounts that transfers may pay. */
    private readonly recipients: readonly Address[],
    private readonly rng: Random,
    weights: Readonly<Record<ActionKind, number>>,
  ) {
    if (accounts.length === 0) throw new Error('the simulator needs at least one account');
    this.chainId = chain.chainId;
    this.client = createChainClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3, pollingIntervalMs: 50 });
    this.signers = accounts.map((account) => ({ account, signer: privateKeyToAccount(account.privateKey as Hex) }));
    this.wallet = createChainWalletClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3, account: this.signers[0].signer, pollingIntervalMs: 50 });
    for (const t of [chain.wrappedNative, ...chain.tokens, ...chain.launchpad.tokens]) this.tokens.set(getAddress(t.address), { symbol: t.symbol, decimals: t.decimals });
    const has = (kind: ManifestPool['kind']) => chain.pools.some((p) => p.kind === kind);
    this.weights = {
      ...weights,
      'v2-swap': has('uniswap-v2') ? weights['v2-swap'] : 0,
      'stable-swap': has('stable') ? weights['stable-swap'] : 0,
      'core-swap': has('core') ? weights['core-swap'] : 0,
      'concentrated-swap': has('uniswap-v3') || has('algebra') ? weights['concentrated-swap'] : 0,
      'v4-swap': this.tradableV4Pools().length > 0 ? weights['v4-swap'] : 0,
    };
  }

  /** Draws and performs one action. Never throws: a failure comes back as a result with `ok: false`. */
  async step(): Promise<ActionResult> {
    const kind = this.rng.weighted(this.weights);
    try {
      const { receipt, detail } = await this.perform(kind);
      return { chainId: this.chainId, kind, ok: true, txHash: receipt.transactionHash, detail };
    } catch (err) {
      const revert = revertName(err);
      return { chainId: this.chainId, kind, ok: false, error: shortMessage(err).replace(/\s+/g, ' ').slice(0, 300), ...(revert ? { revert } : {}) };
    }
  }

  /** Performs one action of the given kind (throws when it fails). */
  perform(kind: ActionKind): Promise<Outcome> {
    switch (kind) {
      case 'v2-swap':
        return this.poolSwap('uniswap-v2');
      case 'stable-swap':
        return this.poolSwap('stable');
      case 'core-swap':
        return this.coreSwap();
      case 'concentrated-swap':
        return this.concentratedSwap();
      case 'v4-swap':
        return this.uniswapV4Swap();
      case 'transfer':
        return this.transfer();
      case 'launchpad-trade':
        return this.launchpadTrade();
      case 'launch-token':
        return this.launchToken();
      case 'oracle-move':
        return this.oracleMove();
    }
  }

  // ---------------------------------------------------------------- actions

  /** A swap on a V2 pair or a stable pool, through RouterV2. */
  private async poolSwap(kind: 'uniswap-v2' | 'stable'): Promise<Outcome> {
    // The test tokens' pools are left alone: those tokens are there to misbehave (pause, blocklist, take fees).
    const testTokens = new Set((this.chain.testTokens ?? []).map((t) => t.address.toLowerCase()));
    const pool = this.rng.pick(this.chain.pools.filter((p) => p.kind === kind && !testTokens.has(p.token0.toLowerCase()) && !testTokens.has(p.token1.toLowerCase())));
    const abi = kind === 'stable' ? stablePoolAbi : uniswapV2PairAbi;
    const [r0, r1] = (await this.client.readContract({ address: pool.address, abi, functionName: 'getReserves' })) as readonly bigint[];
    const [t0, t1] = await Promise.all([this.token(pool.token0), this.token(pool.token1)]);
    // Lean towards the direction that brings the reserve ratio back to where it was first seen.
    const ratio = (to18(r0, t0.decimals) * 10n ** 18n) / (to18(r1, t1.decimals) || 1n);
    const anchor = this.anchor(this.poolAnchors, pool.address, ratio);
    const drift = Number(ratio - anchor) / Number(anchor || 1n);
    const zeroFirst = this.rng.chance(clamp(0.5 - drift * 10, 0.15, 0.85));
    const { zeroIn, amountIn, from } = await this.sizeSwap(pool, [r0, r1], zeroFirst);
    const [tokenIn, tokenOut] = zeroIn ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    const [reserveIn, reserveOut] = zeroIn ? [r0, r1] : [r1, r0];
    const feeBps = this.chain.sources.find((s) => s.routerIndex === pool.routerIndex)?.feeBps ?? 0;
    const quoted =
      kind === 'stable'
        ? await this.client.readContract({ address: pool.address, abi: stablePoolAbi, functionName: 'getAmountOut', args: [amountIn, tokenIn] })
        : getAmountOut(amountIn, reserveIn, reserveOut, BigInt(feeBps));
    if (quoted === 0n) throw new Error(`${pool.name} quotes nothing for ${amountIn} of ${tokenIn}`);
    await this.ensureAllowance(from, tokenIn, this.chain.routerV2, amountIn);
    const receipt = await this.write(from, {
      address: this.chain.routerV2,
      abi: routerV2Abi as Abi,
      functionName: 'executeSwaps',
      args: [
        [tokenIn, tokenOut],
        amountIn,
        (quoted * (10_000n - SLIPPAGE_BPS)) / 10_000n,
        quoted,
        [[{ pool: pool.address, tokenIn, tokenOut, routerIndex: pool.routerIndex, amountIn, data: '0x' }]],
        0n,
        zeroAddress,
      ],
    });
    return { receipt, detail: { pool: pool.name, ...(await this.swapDetail(tokenIn, amountIn, tokenOut, quoted)) } };
  }

  /** A swap on a core pool through the AMM router, with a referral code about two times in five. */
  private async coreSwap(): Promise<Outcome> {
    const pool = this.rng.pick(this.chain.pools.filter((p) => p.kind === 'core'));
    const [[r0, r1], weight0, params] = await Promise.all([
      this.client.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'getReserves' }),
      this.client.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'inventoryWeight0' }),
      this.client.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'feeParams' }),
    ]);
    // Lean towards rebalancing the pool's inventory (as arbitrageurs do: it is the cheaper direction).
    const overweight0 = (Number(weight0) - Number(params.targetWeight0)) / 1e18;
    const zeroFirst = this.rng.chance(clamp(0.5 - overweight0 * 5, 0.15, 0.85));
    const { zeroIn, amountIn, from } = await this.sizeSwap(pool, [r0, r1], zeroFirst);
    const [tokenIn, tokenOut] = zeroIn ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    const router = this.chain.core.router;
    const quoted = await this.client.readContract({ address: router, abi: ammRouterAbi, functionName: 'estimateSwap', args: [tokenIn, tokenOut, amountIn] });
    const ref = this.chain.core.refCodes.length > 0 && this.rng.chance(0.4) ? this.rng.pick(this.chain.core.refCodes) : undefined;
    const minOut = (quoted * (10_000n - SLIPPAGE_BPS)) / 10_000n;
    await this.ensureAllowance(from, tokenIn, router, amountIn);
    const receipt = await this.write(from, {
      address: router,
      abi: ammRouterAbi as Abi,
      functionName: 'swap',
      args: ref ? [tokenIn, tokenOut, amountIn, minOut, ref.refCode] : [tokenIn, tokenOut, amountIn, minOut],
    });
    return { receipt, detail: { pool: pool.name, ...(await this.swapDetail(tokenIn, amountIn, tokenOut, quoted)), ...(ref ? { refCode: ref.code } : {}) } };
  }

  /**
   * A swap on a Uniswap V3 or Algebra pool through RouterV2 (kinds UniswapV3 and Algebra), quoted by the router
   * itself at the current block (the pool's own maths), accepting SLIPPAGE_BPS less.
   */
  private async concentratedSwap(): Promise<Outcome> {
    const pool = this.rng.pick(this.chain.pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra'));
    const [balance0, balance1, state] = await Promise.all([
      this.balanceOf(pool.token0, pool.address),
      this.balanceOf(pool.token1, pool.address),
      pool.kind === 'uniswap-v3'
        ? this.client.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'slot0' })
        : this.client.readContract({ address: pool.address, abi: algebraPoolAbi, functionName: 'globalState' }),
    ]);
    // Lean towards the direction that brings the price back to where it was first seen: selling token0 lowers the tick.
    const tick = Number(state[1]);
    const drift = tick - this.anchorTick(pool.address, tick);
    const zeroFirst = this.rng.chance(clamp(0.5 + (0.35 * drift) / TICK_DRIFT_SCALE, 0.15, 0.85));
    const { zeroIn, amountIn, from } = await this.sizeSwap(pool, [balance0, balance1], zeroFirst, CONCENTRATED_SWAP_SIZE_BPS);
    const [tokenIn, tokenOut] = zeroIn ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    return this.routerSwap(from, pool.name, { pool: pool.address, tokenIn, tokenOut, routerIndex: pool.routerIndex, amountIn, data: '0x' });
  }

  /**
   * One swap through RouterV2 from `from`, quoted by the router itself at the current block (the pool's own maths),
   * accepting SLIPPAGE_BPS less.
   */
  private async routerSwap(
    from: DevAccount,
    poolName: string,
    swap: { pool: Address; tokenIn: Address; tokenOut: Address; routerIndex: number; amountIn: bigint; data: Hex },
  ): Promise<Outcome> {
    const { tokenIn, tokenOut, amountIn } = swap;
    await this.ensureAllowance(from, tokenIn, this.chain.routerV2, amountIn);
    const { result } = await this.client.simulateContract({
      account: from.address,
      address: this.chain.routerV2,
      abi: routerV2Abi,
      functionName: 'executeSwaps',
      args: [[tokenIn, tokenOut], amountIn, 0n, 0n, [[swap]], 0n, zeroAddress],
    });
    const quoted = result as bigint;
    const receipt = await this.write(from, {
      address: this.chain.routerV2,
      abi: routerV2Abi as Abi,
      functionName: 'executeSwaps',
      args: [[tokenIn, tokenOut], amountIn, (quoted * (10_000n - SLIPPAGE_BPS)) / 10_000n, quoted, [[swap]], 0n, zeroAddress],
    });
    return { receipt, detail: { pool: poolName, ...(await this.swapDetail(tokenIn, amountIn, tokenOut, quoted)) } };
  }

  /** The chain's V4 pools RouterV2 trades without a hook allowance (no hook that may change a swap). */
  private tradableV4Pools(): readonly ManifestUniswapV4Pool[] {
    return (this.chain.uniswapV4Pools ?? []).filter((p) => swapHookPermissions(p.hooks).length === 0);
  }

  /**
   * A swap on a Uniswap V4 pool through RouterV2 (kind UniswapV4: the PoolManager as the pool, the key as data),
   * quoted by the router itself at the current block, accepting SLIPPAGE_BPS less; sized on the pool's virtual
   * reserves (StateView's price and liquidity), leaning back towards the tick first seen.
   */
  private async uniswapV4Swap(): Promise<Outcome> {
    const pool = this.rng.pick(this.tradableV4Pools());
    const stateView = this.chain.sources.find((s) => s.routerIndex === pool.routerIndex)?.addresses.stateView as Address | undefined;
    if (!stateView) throw new Error(`the V4 source of ${pool.name} has no StateView`);
    const id = pool.poolId as Hex;
    const [[sqrtPriceX96, tick], liquidity] = await Promise.all([
      this.client.readContract({ address: stateView, abi: stateViewAbi, functionName: 'getSlot0', args: [id] }) as Promise<readonly [bigint, number, number, number]>,
      this.client.readContract({ address: stateView, abi: stateViewAbi, functionName: 'getLiquidity', args: [id] }) as Promise<bigint>,
    ]);
    const reserves = [(liquidity * Q96) / sqrtPriceX96, (liquidity * sqrtPriceX96) / Q96] as const;
    const drift = Number(tick) - this.anchorTick(id, Number(tick));
    const zeroFirst = this.rng.chance(clamp(0.5 + (0.35 * drift) / TICK_DRIFT_SCALE, 0.15, 0.85));
    const { zeroIn, amountIn, from } = await this.sizeSwap(pool, reserves, zeroFirst, V4_SWAP_SIZE_BPS);
    const [tokenIn, tokenOut] = zeroIn ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    const data = encodePoolKey({ currency0: pool.currency0, currency1: pool.currency1, fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks });
    return this.routerSwap(from, pool.name, { pool: pool.poolManager, tokenIn, tokenOut, routerIndex: pool.routerIndex, amountIn, data });
  }

  /** A token transfer from a simulator account, mostly to the other one, sometimes to a trader. */
  private async transfer(): Promise<Outcome> {
    const token = this.rng.pick([this.chain.wrappedNative, ...this.chain.tokens]);
    const from = this.rng.pick(this.signers).account;
    const peers = this.signers.map((s) => s.account.address).filter((a) => a !== from.address);
    const to = peers.length > 0 && (this.recipients.length === 0 || this.rng.chance(0.7)) ? this.rng.pick(peers) : this.rng.pick(this.recipients);
    const balance = await this.balanceOf(token.address, from.address);
    const amount = this.rng.bpsOf(balance, 1, 50);
    if (amount === 0n) throw new Error(`${from.role} holds no ${token.symbol} to transfer`);
    const receipt = await this.write(from, { address: token.address, abi: erc20Abi as Abi, functionName: 'transfer', args: [to, amount] });
    return { receipt, detail: { token: token.symbol, from: from.address, to, amount: formatUnits(amount, token.decimals) } };
  }

  /** A buy or a sell on the curve of one of the newest launchpad tokens whose curve still trades (not sold out). */
  private async launchpadTrade(): Promise<Outcome> {
    const launchpad = this.chain.launchpad.address;
    const count = await this.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenCount' });
    const start = count > LAUNCHPAD_RECENT ? count - LAUNCHPAD_RECENT : 0n;
    const [addresses, metadata] = await this.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getPaginatedTokensWithMetadata', args: [start, LAUNCHPAD_RECENT] });
    const order = this.rng.shuffle(addresses.map((_, i) => i));
    let picked: number | undefined;
    for (const i of order.slice(0, 6)) {
      // 0 once the curve sold out: it is frozen then, graduated or not yet.
      const forSale = await this.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getTokensForSale', args: [addresses[i]] });
      if (forSale > 0n) {
        picked = i;
        break;
      }
    }
    if (picked === undefined) throw new Error('no launchpad token is trading on its curve');
    const token = getAddress(addresses[picked]);
    const symbol = metadata[picked].symbol;
    const creator = getAddress(metadata[picked].creator);

    // Creators may not sell for an hour after launch; the simulator never sells its own launches.
    const holders: { account: DevAccount; balance: bigint }[] = [];
    for (const { account } of this.signers) {
      if (account.address === creator) continue;
      const balance = await this.balanceOf(token, account.address);
      if (balance > 0n) holders.push({ account, balance });
    }
    if (holders.length > 0 && this.rng.chance(0.4)) {
      const { account, balance } = this.rng.pick(holders);
      const amount = this.rng.bpsOf(balance, 2_000, 6_000);
      const nativeOut = await this.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'estimateSell', args: [token, amount] });
      const receipt = await this.write(account, { address: launchpad, abi: launchpadAbi as Abi, functionName: 'sellTokens', args: [token, amount] });
      return { receipt, detail: { side: 'sell', token: symbol, amount: formatUnits(amount, 6), nativeOut: formatUnits(nativeOut, 18) } };
    }
    const buyer = this.rng.pick(this.signers).account;
    const value = parseUnits(this.rng.between(0.05, 1.5).toFixed(4), 18);
    const tokensOut = await this.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'estimateBuy', args: [token, value] });
    const receipt = await this.write(buyer, { address: launchpad, abi: launchpadAbi as Abi, functionName: 'buyTokens', args: [token], value });
    return { receipt, detail: { side: 'buy', token: symbol, nativeIn: formatUnits(value, 18), amount: formatUnits(tokensOut, 6) } };
  }

  /** Launches a new token on the launchpad, with a small first purchase by its creator. */
  private async launchToken(): Promise<Outcome> {
    const creator = this.rng.pick(this.signers).account;
    const adjective = this.rng.pick(ADJECTIVES);
    const animal = this.rng.pick(ANIMALS);
    const count = await this.client.readContract({ address: this.chain.launchpad.address, abi: launchpadAbi, functionName: 'getTokenCount' });
    const name = `${adjective} ${animal}`;
    const symbol = `${adjective.slice(0, 2)}${animal.slice(0, 3)}${count}`.toUpperCase();
    const slug = symbol.toLowerCase();
    const value = parseUnits(this.rng.between(0.1, 2).toFixed(3), 18);
    const receipt = await this.write(creator, {
      address: this.chain.launchpad.address,
      abi: launchpadAbi as Abi,
      functionName: 'createToken',
      args: [name, symbol, `ipfs://devnet/${slug}.png`, `${name}, launched on the devnet.`, `https://${slug}.example`, `@${slug}`, `t.me/${slug}`, `discord.gg/${slug}`, 0],
      value,
    });
    const [created] = parseEventLogs({ abi: launchpadAbi, eventName: 'TokenCreated', logs: receipt.logs });
    const token = created ? getAddress(created.args.token) : undefined;
    if (token) this.tokens.set(token, { symbol, decimals: 6 });
    return { receipt, detail: { token: token ?? 'unknown', name, symbol, creator: creator.address, nativeIn: formatUnits(value, 18) } };
  }

  /** Moves every oracle price of the core pools' tokens by a few basis points. */
  private async oracleMove(): Promise<Outcome> {
    const oracle = this.chain.core.oracle;
    const tokens = [...new Set(this.chain.pools.filter((p) => p.kind === 'core').flatMap((p) => [p.token0, p.token1]))];
    if (tokens.length === 0) throw new Error('no core pool tokens to price');
    const current = await Promise.all(tokens.map((t) => this.client.readContract({ address: oracle, abi: settablePriceOracleAbi, functionName: 'getPriceUsd', args: [t] })));
    const next: bigint[] = [];
    const detail: Record<string, string> = {};
    for (const [i, token] of tokens.entries()) {
      const price = current[i][0];
      const anchor = this.anchor(this.priceAnchors, token, price);
      const pegged = anchor > 95n * 10n ** 16n && anchor < 105n * 10n ** 16n;
      const band = BigInt(pegged ? ORACLE_BAND_BPS.pegged : ORACLE_BAND_BPS.floating);
      // A step of up to ORACLE_STEP_BPS either way, pulled back by a tenth of the drift so far.
      const driftBps = (Number(price - anchor) / Number(anchor)) * 10_000;
      const stepBps = this.rng.between(-ORACLE_STEP_BPS, ORACLE_STEP_BPS) - driftBps / 10;
      const moved = (price * BigInt(1_000_000 + Math.round(stepBps * 100))) / 1_000_000n;
      const lo = (anchor * (10_000n - band)) / 10_000n;
      const hi = (anchor * (10_000n + band)) / 10_000n;
      next.push(moved < lo ? lo : moved > hi ? hi : moved);
      detail[(await this.token(token)).symbol] = formatUnits(next[i], 18);
    }
    const from = this.rng.pick(this.signers).account;
    const receipt = await this.write(from, { address: oracle, abi: settablePriceOracleAbi as Abi, functionName: 'setPrices', args: [tokens, next] });
    return { receipt, detail };
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Picks the swap's direction (`zeroFirst` preferred, the other one if no account can pay it), its size
   * (`sizeBps` of the input reserve, SWAP_SIZE_BPS unless given) and the account that pays it.
   */
  private async sizeSwap(
    pool: Pick<ManifestPool, 'name' | 'token0' | 'token1'>,
    reserves: readonly [bigint, bigint],
    zeroFirst: boolean,
    sizeBps: readonly [number, number] = SWAP_SIZE_BPS,
  ): Promise<{ zeroIn: boolean; amountIn: bigint; from: DevAccount }> {
    for (const zeroIn of [zeroFirst, !zeroFirst]) {
      const tokenIn = zeroIn ? pool.token0 : pool.token1;
      const amountIn = this.rng.bpsOf(zeroIn ? reserves[0] : reserves[1], sizeBps[0], sizeBps[1]);
      if (amountIn === 0n) continue;
      const order = this.rng.chance(0.5) ? this.signers : [...this.signers].reverse();
      for (const { account } of order) {
        if ((await this.balanceOf(tokenIn, account.address)) >= amountIn) return { zeroIn, amountIn, from: account };
      }
    }
    throw new Error(`no simulator account holds enough of either token of ${pool.name}`);
  }

  private anchorTick(pool: Address, tick: number): number {
    const known = this.tickAnchors.get(pool);
    if (known !== undefined) return known;
    this.tickAnchors.set(pool, tick);
    return tick;
  }

  private anchor(anchors: Map<Address, bigint>, key: Address, value: bigint): bigint {
    const known = anchors.get(key);
    if (known !== undefined) return known;
    anchors.set(key, value);
    return value;
  }

  private async token(address: Address): Promise<TokenInfo> {
    const key = getAddress(address);
    const known = this.tokens.get(key);
    if (known) return known;
    const [symbol, decimals] = await Promise.all([
      this.client.readContract({ address: key, abi: erc20Abi, functionName: 'symbol' }),
      this.client.readContract({ address: key, abi: erc20Abi, functionName: 'decimals' }),
    ]);
    const info = { symbol, decimals };
    this.tokens.set(key, info);
    return info;
  }

  private async swapDetail(tokenIn: Address, amountIn: bigint, tokenOut: Address, amountOut: bigint): Promise<Record<string, string>> {
    const [a, b] = await Promise.all([this.token(tokenIn), this.token(tokenOut)]);
    return { tokenIn: a.symbol, amountIn: formatUnits(amountIn, a.decimals), tokenOut: b.symbol, amountOut: formatUnits(amountOut, b.decimals) };
  }

  private balanceOf(token: Address, owner: Address): Promise<bigint> {
    return this.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  }

  private async ensureAllowance(from: DevAccount, token: Address, spender: Address, amount: bigint): Promise<void> {
    const key = `${from.address}:${token}:${spender}`;
    if (this.approved.has(key)) return;
    const allowance = await this.client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [from.address, spender] });
    if (allowance < amount) await this.write(from, { address: token, abi: erc20Abi as Abi, functionName: 'approve', args: [spender, maxUint256] });
    this.approved.add(key);
  }

  /** Sends a contract call from `from` (gas padded by the wallet client's transport) and waits for success. */
  private async write(from: DevAccount, call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[]; value?: bigint }): Promise<TransactionReceipt> {
    const signer = this.signers.find((s) => s.account.address === from.address)!.signer;
    const hash = await this.wallet.writeContract({ ...call, account: signer } as never);
    const receipt = await this.client.waitForTransactionReceipt({ hash, timeout: 30_000 });
    if (receipt.status !== 'success') throw new Error(`${call.functionName} reverted on chain ${this.chainId} (tx ${hash})`);
    return receipt;
  }
}
