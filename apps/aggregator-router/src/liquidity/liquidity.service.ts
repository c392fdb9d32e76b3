import { ammPoolAbi, launchpadAbi, stablePoolAbi, stablePoolFactoryAbi, uniswapV2FactoryAbi, uniswapV2PairAbi } from '@dex/abis';
import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { CHAIN_FACTS, type SourceConfig, type SourceKind, type TokenMeta } from '@dex/messages';
import { buildGraph, type ChainGraph, type PoolSnapshot, type QuoteSample } from '@dex/routing';
import { BusError, ChainFactsSubscription, type ChainFactMessage, type NatsBus } from '@dex/service';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { erc20Abi, getAddress, type Address } from 'viem';
import type { ChainEntry } from './chain-config';

/** Inputs sampled per direction of a core pool: geometric from a millionth of the input reserve to half of it. */
export const CORE_LADDER_SIZE = 16;

/** Pool kinds the graph reads reserves or ladders of, one by one (a launchpad's curves are read per token). */
const LISTED_POOL_KINDS: ReadonlySet<SourceKind> = new Set(['uniswap-v2', 'stable', 'core']);

/** A pool as the sources file and the indexer's `pool.created` facts describe it. */
type ListedPool = ChainEntry['pools'][number];

export interface LiquiditySnapshot {
  readonly blockNumber: bigint;
  readonly pools: readonly PoolSnapshot[];
  readonly graph: ChainGraph;
}

/** One served chain: its configuration, RPC client, token metadata and newest liquidity snapshot. */
export class ChainLiquidity {
  readonly tokens = new Map<string, TokenMeta>();
  snapshot?: LiquiditySnapshot;
  private refreshing?: Promise<void>;
  private wanted?: bigint;
  /** Set when the snapshot is out of date at its own block: a pool or token appeared, or a reorg replaced it. */
  private stale = false;
  private launchpadFeeBps?: bigint;
  /** Pools and launched tokens found after the sources file was written (see `discover` and `addPool`). */
  private readonly discoveredPools: ChainEntry['pools'] = [];
  private readonly launchedTokens: Address[] = [];
  private readonly factoryCursor = new Map<string, bigint>();
  private launchpadCursor = 0n;
  private readonly sourceNames: ReadonlyMap<number, string>;
  private readonly logger: Logger;

  constructor(
    readonly chainId: number,
    readonly entry: ChainEntry,
    readonly sources: readonly SourceConfig[],
    readonly client: ChainPublicClient,
  ) {
    this.sourceNames = new Map(sources.map((s) => [s.routerIndex, s.name]));
    this.logger = new Logger(`Liquidity:${chainId}`);
  }

  get wrappedNative(): Address {
    return this.entry.wrappedNative.address as Address;
  }

  sourceName(routerIndex: number): string {
    return this.sourceNames.get(routerIndex) ?? `source ${routerIndex}`;
  }

  token(address: string): TokenMeta | undefined {
    return this.tokens.get(address.toLowerCase());
  }

  /** The newest snapshot, waiting for a refresh under way (or the first load) so a route sees the newest block. */
  async current(): Promise<LiquiditySnapshot> {
    if (this.refreshing) await this.refreshing.catch(() => undefined);
    if (!this.snapshot) await this.refresh();
    if (!this.snapshot) throw new BusError(503, 'Liquidity not loaded yet', `chain ${this.chainId}`);
    return this.snapshot;
  }

  /** Refreshes at `blockNumber` (the newest block when absent); one refresh at a time, the newest wins. */
  refresh(blockNumber?: bigint): Promise<void> {
    if (blockNumber !== undefined && this.wanted !== undefined && blockNumber <= this.wanted) return this.refreshing ?? Promise.resolve();
    if (blockNumber !== undefined) this.wanted = blockNumber;
    if (this.refreshing) return this.refreshing;
    const run = async () => {
      let reloading = false;
      try {
        for (;;) {
          const target = this.wanted ?? (await this.client.getBlockNumber());
          this.wanted = undefined;
          if (this.snapshot && target <= this.snapshot.blockNumber && !this.stale) break;
          reloading = this.stale;
          this.stale = false;
          await this.load(target, reloading);
          reloading = false;
          if (this.wanted === undefined && !this.stale) break;
        }
      } catch (err) {
        // Forget the block that failed, so the next call (the same block again, or a later one) retries; a
        // reload that failed stays wanted.
        this.wanted = undefined;
        if (reloading) this.stale = true;
        throw err;
      }
    };
    // A run for a block the snapshot already has ends without awaiting anything, i.e. before `run()` returns, so
    // the run is forgotten once it has settled rather than from inside it: cleared from inside, it would be
    // cleared before being recorded, and the settled run would stay `refreshing` and swallow every later block.
    const running = run();
    this.refreshing = running;
    running
      .finally(() => {
        if (this.refreshing === running) this.refreshing = undefined;
      })
      .catch(() => undefined);
    return running;
  }

  /**
   * Reloads the newest block even if the snapshot is at it already (a pool or a launched token appeared, or a
   * reorg replaced blocks); a reload under way is followed by another.
   */
  invalidate(): Promise<void> {
    this.stale = true;
    return this.refresh();
  }

  /**
   * Adds a pool the indexer found (a `pool.created` fact) of a listed kind and a configured source, and reads
   * the metadata of its tokens; false when it is known already or not routable here. The caller reloads.
   */
  async addPool(pool: ListedPool): Promise<boolean> {
    const source = this.sources.find((s) => s.routerIndex === pool.routerIndex);
    if (!LISTED_POOL_KINDS.has(pool.kind) || source?.kind !== pool.kind) return false;
    const added = this.rememberPool({ ...pool, address: getAddress(pool.address), token0: getAddress(pool.token0), token1: getAddress(pool.token1) });
    if (!added) return false;
    const unknown = [pool.token0, pool.token1].filter((t) => !this.token(t));
    if (unknown.length) await this.loadTokenMeta(unknown.map((t) => getAddress(t)));
    return true;
  }

  /** Adds a token created on the chain's launchpad (a `launchpad.token.created` fact); false when known. */
  async addLaunchedToken(token: string): Promise<boolean> {
    if (!this.entry.launchpad || this.launchedTokens.some((t) => t.toLowerCase() === token.toLowerCase())) return false;
    this.launchedTokens.push(getAddress(token));
    if (!this.token(token)) await this.loadTokenMeta([getAddress(token)]);
    return true;
  }

  /** Adds `pool` to the discovered pools unless the chain knows it already; whether it was added. */
  private rememberPool(pool: ListedPool): boolean {
    const address = pool.address.toLowerCase();
    if ([...this.entry.pools, ...this.discoveredPools].some((p) => p.address.toLowerCase() === address)) return false;
    this.discoveredPools.push(pool);
    return true;
  }

  /**
   * Finds what appeared on chain since the last look: pairs created by each V2 and stable factory (among them
   * the pair a launched token graduates into) and tokens created on the launchpad, so a new token is routable
   * within a block or two of its creation. Reads two counters per source each block; only new entries cost more.
   */
  private async discover(blockNumber: bigint): Promise<void> {
    const known = new Set([...this.entry.pools, ...this.discoveredPools].map((p) => p.address.toLowerCase()));
    const factories = this.sources.filter((s) => (s.kind === 'uniswap-v2' || s.kind === 'stable') && s.addresses.factory);
    const launchpad = this.entry.launchpad?.address as Address | undefined;
    if (this.launchedTokens.length === 0) for (const t of this.entry.launchpad?.tokens ?? []) this.launchedTokens.push(getAddress(t.address));
    const counts = await this.client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: [
        ...factories.map((s) =>
          s.kind === 'stable'
            ? ({ address: s.addresses.factory as Address, abi: stablePoolFactoryAbi, functionName: 'allPairsLength' } as const)
            : ({ address: s.addresses.factory as Address, abi: uniswapV2FactoryAbi, functionName: 'allPairsLength' } as const),
        ),
        ...(launchpad ? [{ address: launchpad, abi: launchpadAbi, functionName: 'getTokenCount' } as const] : []),
      ],
    });
    const newTokens = new Set<string>();
    for (const [i, source] of factories.entries()) {
      const r = counts[i];
      if (r.status !== 'success') continue;
      const factory = source.addresses.factory as Address;
      const from = this.factoryCursor.get(factory) ?? 0n;
      const to = r.result as bigint;
      if (to <= from) continue;
      const abi = source.kind === 'stable' ? stablePoolFactoryAbi : uniswapV2FactoryAbi;
      const indexes = Array.from({ length: Number(to - from) }, (_, k) => from + BigInt(k));
      const pairs = await this.client.multicall({
        blockNumber,
        allowFailure: false,
        contracts: indexes.map((k) => ({ address: factory, abi, functionName: 'allPairs', args: [k] }) as const),
      });
      const fresh = (pairs as Address[]).filter((a) => !known.has(a.toLowerCase()));
      const tokens = await this.client.multicall({
        blockNumber,
        allowFailure: false,
        contracts: fresh.flatMap((a) => [
          { address: a, abi: uniswapV2PairAbi, functionName: 'token0' } as const,
          { address: a, abi: uniswapV2PairAbi, functionName: 'token1' } as const,
        ]),
      });
      fresh.forEach((address, k) => {
        const [token0, token1] = [tokens[2 * k] as Address, tokens[2 * k + 1] as Address];
        this.rememberPool({ routerIndex: source.routerIndex, kind: source.kind, address, token0, token1 });
        for (const t of [token0, token1]) if (!this.token(t)) newTokens.add(t);
      });
      this.factoryCursor.set(factory, to);
    }
    const launched = launchpad ? counts[factories.length] : undefined;
    if (launchpad && launched?.status === 'success' && (launched.result as bigint) > this.launchpadCursor) {
      const total = launched.result as bigint;
      const [addresses] = await this.client.readContract({
        address: launchpad,
        abi: launchpadAbi,
        functionName: 'getPaginatedTokensWithMetadata',
        args: [this.launchpadCursor, total - this.launchpadCursor],
        blockNumber,
      });
      for (const a of addresses) {
        if (!this.launchedTokens.some((t) => t.toLowerCase() === a.toLowerCase())) this.launchedTokens.push(getAddress(a));
        if (!this.token(a)) newTokens.add(a);
      }
      this.launchpadCursor = total;
    }
    if (newTokens.size) await this.loadTokenMeta([...newTokens].map((a) => getAddress(a)));
  }

  /**
   * Reads the chain's liquidity at `blockNumber` into a new snapshot: pools and tokens that appeared first, then
   * the V2 and stable reserves, the core ladders and the launchpad curves, those three at once (each is a
   * round trip or two to the node; routes wait for a refresh under way, so it should be short). A `reload`
   * replaces the snapshot even at the same or a lower block (after a reorg the head may be lower).
   */
  private async load(blockNumber: bigint, reload = false): Promise<void> {
    if (this.tokens.size === 0) await this.loadTokens();
    await this.discover(blockNumber);
    const entry = { ...this.entry, pools: [...this.entry.pools, ...this.discoveredPools] };
    const [pairs, cores, curves] = await Promise.all([this.loadPairs(entry, blockNumber), this.loadCores(entry, blockNumber), this.loadCurves(entry, blockNumber)]);
    const pools: PoolSnapshot[] = [...pairs, ...cores, ...curves];
    const graph = buildGraph({ chainId: this.chainId, blockNumber, pools });
    if (!this.snapshot || blockNumber > this.snapshot.blockNumber || reload) this.snapshot = { blockNumber, pools, graph };
    this.logger.debug?.({ msg: 'liquidity refreshed', blockNumber: blockNumber.toString(), pools: pools.length });
  }

  private decimals(address: string): number {
    return this.token(address)?.decimals ?? 18;
  }

  /** What every snapshot of a listed pool carries: its address, source and tokens with their decimals. */
  private poolIdentity(p: { address: string; routerIndex: number; token0: string; token1: string }) {
    return {
      address: p.address,
      routerIndex: p.routerIndex,
      routerName: this.sourceName(p.routerIndex),
      token0: p.token0,
      token1: p.token1,
      decimals0: this.decimals(p.token0),
      decimals1: this.decimals(p.token1),
    };
  }

  /** V2 and stable pools with their reserves; empty ones are left out. */
  private async loadPairs(entry: ChainEntry, blockNumber: bigint): Promise<PoolSnapshot[]> {
    const pools: PoolSnapshot[] = [];
    const pairs = entry.pools.filter((p) => p.kind === 'uniswap-v2' || p.kind === 'stable');
    const reserves = await this.client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: pairs.map((p) =>
        p.kind === 'stable'
          ? ({ address: p.address as Address, abi: stablePoolAbi, functionName: 'getReserves' } as const)
          : ({ address: p.address as Address, abi: uniswapV2PairAbi, functionName: 'getReserves' } as const),
      ),
    });
    pairs.forEach((p, i) => {
      const r = reserves[i];
      if (r.status !== 'success') return;
      const [reserve0, reserve1] = r.result as readonly [bigint, bigint, ...unknown[]];
      // An empty pool (e.g. a launched token's pair before graduation) has nothing to route through.
      if (BigInt(reserve0) === 0n || BigInt(reserve1) === 0n) return;
      const feeBps = this.sources.find((s) => s.routerIndex === p.routerIndex)?.feeBps ?? 30;
      pools.push({
        kind: p.kind as 'uniswap-v2' | 'stable',
        ...this.poolIdentity(p),
        reserve0: BigInt(reserve0),
        reserve1: BigInt(reserve1),
        feeBps,
      });
    });
    return pools;
  }

  /** Core pools with their quote ladders in both directions. */
  private async loadCores(entry: ChainEntry, blockNumber: bigint): Promise<PoolSnapshot[]> {
    const pools: PoolSnapshot[] = [];
    const cores = entry.pools.filter((p) => p.kind === 'core');
    const coreReserves = await this.client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: cores.map((p) => ({ address: p.address as Address, abi: ammPoolAbi, functionName: 'getReserves' }) as const),
    });
    await Promise.all(
      cores.map(async (p, i) => {
        const r = coreReserves[i];
        if (r.status !== 'success') return;
        const [r0, r1] = r.result;
        const [samples0to1, samples1to0] = await Promise.all([
          this.coreLadder(p.address as Address, p.token0 as Address, p.token1 as Address, r0, blockNumber),
          this.coreLadder(p.address as Address, p.token1 as Address, p.token0 as Address, r1, blockNumber),
        ]);
        pools.push({
          kind: 'core',
          ...this.poolIdentity(p),
          samples0to1,
          samples1to0,
        });
      }),
    );
    return pools;
  }

  /** The bonding curves of the launched tokens that are still trading (not sold out). */
  private async loadCurves(entry: ChainEntry, blockNumber: bigint): Promise<PoolSnapshot[]> {
    const pools: PoolSnapshot[] = [];
    const launchpadSource = this.sources.find((s) => s.kind === 'launchpad');
    if (!entry.launchpad || !launchpadSource) return pools;
    const launchpad = entry.launchpad.address as Address;
    const tokens = this.launchedTokens;
    const reads = await this.client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: [
        ...tokens.flatMap(
          (token) =>
            [
              { address: launchpad, abi: launchpadAbi, functionName: 'getTokenState', args: [token] },
              { address: launchpad, abi: launchpadAbi, functionName: 'getTokensForSale', args: [token] },
              { address: launchpad, abi: launchpadAbi, functionName: 'getRealHypeReserve', args: [token] },
            ] as const,
        ),
      ],
    });
    this.launchpadFeeBps ??= await this.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'FEE_BPS' });
    const feeBps = this.launchpadFeeBps;
    tokens.forEach((token, i) => {
      const [state, forSale, real] = reads.slice(i * 3, i * 3 + 3);
      if (state.status !== 'success' || forSale.status !== 'success' || real.status !== 'success') return;
      const s = state.result as { hypeReserve: bigint; tokenReserve: bigint; graduated: boolean };
      // A sold-out curve is frozen (buys and sells revert TokenFrozen), graduated or waiting for `graduate`; the
      // token routes through its DEX pair once that pair is seeded.
      if (s.graduated || (forSale.result as bigint) === 0n) return;
      const native = this.wrappedNative;
      const [token0, token1] = BigInt(token) < BigInt(native) ? [token, native] : [native, token];
      pools.push({
        kind: 'launchpad',
        address: launchpad,
        routerIndex: launchpadSource.routerIndex,
        routerName: launchpadSource.name,
        token0,
        token1,
        decimals0: this.decimals(token0),
        decimals1: this.decimals(token1),
        nativeToken: native,
        curve: { hypeReserve: s.hypeReserve, tokenReserve: s.tokenReserve, tokensForSale: forSale.result as bigint, realHypeReserve: real.result as bigint, feeBps },
      });
    });
    return pools;
  }

  /** `estimateSwapBatch` samples of one direction; when the batch reverts, the amounts one by one, cut at the first failure. */
  private async coreLadder(pool: Address, tokenIn: Address, tokenOut: Address, reserveIn: bigint, blockNumber: bigint): Promise<QuoteSample[]> {
    if (reserveIn <= 0n) return [];
    const amounts = geometricLadder(reserveIn / 1_000_000n || 1n, reserveIn / 2n || 1n, CORE_LADDER_SIZE);
    try {
      const outs = await this.client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'estimateSwapBatch', args: [tokenIn, tokenOut, amounts], blockNumber });
      return amounts.map((amountIn, i) => ({ amountIn, amountOut: outs[i] }));
    } catch {
      const single = await this.client.multicall({
        blockNumber,
        allowFailure: true,
        contracts: amounts.map((a) => ({ address: pool, abi: ammPoolAbi, functionName: 'estimateSwap', args: [tokenIn, tokenOut, a] }) as const),
      });
      const samples: QuoteSample[] = [];
      for (const [i, r] of single.entries()) {
        if (r.status !== 'success' || r.result === 0n) {
          if (samples.length > 0) break;
          continue;
        }
        samples.push({ amountIn: amounts[i], amountOut: r.result });
      }
      return samples;
    }
  }

  /** Symbol, name and decimals of every token the chain's pools and launchpad trade (read once, cached). */
  private async loadTokens(): Promise<void> {
    const known = new Map<string, TokenMeta>();
    for (const t of [this.entry.wrappedNative, ...this.entry.tokens]) known.set(t.address.toLowerCase(), { ...t, address: getAddress(t.address) });
    const addresses = new Set<string>(known.keys());
    for (const p of this.entry.pools) {
      addresses.add(p.token0.toLowerCase());
      addresses.add(p.token1.toLowerCase());
    }
    for (const t of this.entry.launchpad?.tokens ?? []) addresses.add(t.address.toLowerCase());
    await this.loadTokenMeta([...addresses].map((a) => getAddress(a)), known);
  }

  /** Reads symbol, name and decimals of `list` into the token cache (`known` fills in what a token cannot say). */
  private async loadTokenMeta(list: readonly Address[], known: ReadonlyMap<string, TokenMeta> = new Map()): Promise<void> {
    const reads = await this.client.multicall({
      allowFailure: true,
      contracts: list.flatMap(
        (address) =>
          [
            { address, abi: erc20Abi, functionName: 'symbol' },
            { address, abi: erc20Abi, functionName: 'name' },
            { address, abi: erc20Abi, functionName: 'decimals' },
          ] as const,
      ),
    });
    list.forEach((address, i) => {
      const fallback = known.get(address.toLowerCase());
      const [symbol, name, decimals] = reads.slice(i * 3, i * 3 + 3);
      const meta: TokenMeta = {
        address,
        symbol: symbol.status === 'success' ? (symbol.result as string) : (fallback?.symbol ?? '?'),
        name: name.status === 'success' ? (name.result as string) : (fallback?.name ?? '?'),
        decimals: decimals.status === 'success' ? Number(decimals.result) : (fallback?.decimals ?? 18),
      };
      this.tokens.set(address.toLowerCase(), meta);
    });
  }
}

/** `n` amounts from `low` to `high`, geometric, strictly increasing. */
export function geometricLadder(low: bigint, high: bigint, n: number): bigint[] {
  if (high <= low) return [low];
  const ratio = Math.pow(Number(high) / Number(low), 1 / (n - 1));
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    let a = i === n - 1 ? high : BigInt(Math.floor(Number(low) * Math.pow(ratio, i)));
    if (out.length && a <= out[out.length - 1]) a = out[out.length - 1] + 1n;
    out.push(a);
  }
  return out;
}

/** The indexer's facts that change what a chain's graph holds (reserves are read from the chain every block). */
export const LIQUIDITY_FACTS = [CHAIN_FACTS.poolCreated, CHAIN_FACTS.launchpadTokenCreated, CHAIN_FACTS.launchpadTokenGraduated, CHAIN_FACTS.reorg] as const;

/**
 * Every served chain's liquidity: read at boot and on every new block, and kept complete by the indexer's chain
 * facts. A `pool.created` fact adds the pool (of any listed source: V2 and stable pairs are also found by the
 * per-block factory counters, core pools only this way), a `launchpad.token.created` fact the token's curve;
 * these and `launchpad.token.graduated` and `reorg` reload the chain's newest block at once.
 */
@Injectable()
export class LiquidityService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Liquidity');
  private readonly unwatch: (() => void)[] = [];
  private readonly facts?: ChainFactsSubscription;

  constructor(
    private readonly chains: ReadonlyMap<number, ChainLiquidity>,
    facts?: { bus: NatsBus; stream?: string },
  ) {
    if (facts) {
      this.facts = new ChainFactsSubscription({
        ...facts,
        logger: this.logger,
        context: 'Liquidity',
        chainIds: [...chains.keys()],
        facts: LIQUIDITY_FACTS,
        onFact: (fact) => this.onFact(fact),
      });
    }
  }

  static create(
    entries: ReadonlyMap<number, ChainEntry>,
    sources: ReadonlyMap<number, readonly SourceConfig[]>,
    endpoints: readonly { chainId: number; rpcUrl: string }[],
    pollMs: number,
    facts?: { bus: NatsBus; stream?: string },
  ): LiquidityService {
    const chains = new Map<number, ChainLiquidity>();
    for (const e of endpoints) {
      const entry = entries.get(e.chainId)!;
      const client = createChainClient({ chainId: e.chainId, rpcUrl: e.rpcUrl, multicall3: entry.multicall3 as Address | undefined, timeoutMs: 5_000, pollingIntervalMs: pollMs });
      chains.set(e.chainId, new ChainLiquidity(e.chainId, entry, sources.get(e.chainId) ?? [], client));
    }
    return new LiquidityService(chains, facts);
  }

  chain(chainId: number): ChainLiquidity {
    const chain = this.chains.get(chainId);
    if (!chain) throw new BusError(400, `Unsupported chainId: ${chainId}`, `supported chains: ${[...this.chains.keys()].join(', ')}`);
    return chain;
  }

  /** Applies one chain fact: adds what it announces, then reloads the chain (not awaited: reloads coalesce). */
  async onFact(message: ChainFactMessage): Promise<void> {
    const chain = this.chains.get(message.chainId);
    if (!chain) return;
    let changed = true;
    if (message.fact === CHAIN_FACTS.poolCreated) changed = await chain.addPool(message.payload);
    else if (message.fact === CHAIN_FACTS.launchpadTokenCreated) changed = await chain.addLaunchedToken(message.payload.token);
    if (!changed) return;
    this.logger.debug?.({ msg: 'chain fact applied', chainId: chain.chainId, fact: message.fact, seq: message.seq });
    chain.invalidate().catch((err: unknown) => this.logger.warn({ msg: 'liquidity reload failed', chainId: chain.chainId, err: String(err) }));
  }

  onApplicationBootstrap(): void {
    this.facts?.start();
    for (const chain of this.chains.values()) {
      chain.refresh().catch((err: unknown) => this.logger.warn({ msg: 'first liquidity load failed', chainId: chain.chainId, err: String(err) }));
      this.unwatch.push(
        chain.client.watchBlockNumber({
          emitMissed: false,
          onBlockNumber: (blockNumber) =>
            void chain.refresh(blockNumber).catch((err: unknown) => this.logger.warn({ msg: 'liquidity refresh failed', chainId: chain.chainId, err: String(err) })),
          onError: (err) => this.logger.warn({ msg: 'block watch failed', chainId: chain.chainId, err: err.message }),
        }),
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    for (const stop of this.unwatch.splice(0)) stop();
    await this.facts?.stop();
  }
}
