import * as abis from '@dex/abis';
import { devnetManifestSchema, type DevnetManifest, type ManifestChain } from '@dex/messages';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Address, Hex } from 'viem';
import { devAccounts } from './accounts';
import { startAnvil, type AnvilNode } from './anvil';
import { DEVNET_TOKENS, deployBase, deployContext } from './deploy';
import { DEVNET_CORE_POOLS, deployAmm } from './amm';
import { DEVNET_LAUNCHES, deployLaunchpad } from './launchpad';
import { deployRouter } from './router';
import { deployScale, type ScaleDeployment, type ScaleProfile } from './scale';
import { DEVNET_SOURCES, deploySources } from './sources';
import { DEVNET_CONCENTRATED_SOURCES, deployConcentrated } from './concentrated';
import { DEVNET_UNISWAP_V4_SOURCES, withUniswapV4 } from './uniswap-v4';
import { DEVNET_CURVE_SOURCES, DEVNET_CURVE_TOKENS, DEVNET_CURVE_TOKEN_PRICES_USD, withCurve } from './curve';
import { MISBEHAVING_TOKENS, deployMisbehavingTokens } from './misbehaving';

export interface DevnetOptions {
  /** chainId -> port; 0 picks a free port. */
  readonly ports: Readonly<Record<number, number>>;
  readonly host?: string;
  readonly gatewayUrl: string;
  /** Where anvil logs go (one file per chain); discarded when unset. */
  readonly logDir?: string;
  /** Seconds between blocks; unset mines a block per transaction. */
  readonly blockTime?: number;
  /** The scale profile: thousands of pools on top of the ordinary devnet (see `deployScale`). */
  readonly scale?: ScaleOptions;
}

export interface ScaleOptions extends ScaleProfile {
  /**
   * Where each chain's seeded state is kept (anvil's state dump and what was deployed), so the next start with
   * the same profile and contracts loads it in a second instead of seeding again; unset seeds every time.
   */
  readonly cacheDir?: string;
}

export interface Devnet {
  readonly manifest: DevnetManifest;
  readonly nodes: readonly AnvilNode[];
  /** What the scale profile added, per chain. */
  readonly scale?: ReadonlyMap<number, ScaleDeployment>;
  stop(): Promise<void>;
}

/** Block states a scale chain keeps on disk beyond those in memory (an indexer's reorg window fits in them). */
const SCALE_PERSISTED_STATES = 64;

/** A cached chain is seeded again after this long: the oracle prices it holds age (the pools refuse stale ones). */
const SCALE_CACHE_MAX_AGE_MS = 24 * 3_600_000;

/** The cache files of one chain's scale profile, named by everything that shapes the chain. */
function scaleCache(options: ScaleOptions, chainId: number) {
  const bytecodes = Object.entries(abis)
    .filter(([name]) => name.endsWith('Bytecode'))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const seeds = [DEVNET_TOKENS[chainId], DEVNET_SOURCES[chainId], DEVNET_CORE_POOLS[chainId], DEVNET_LAUNCHES, DEVNET_CONCENTRATED_SOURCES[chainId], DEVNET_UNISWAP_V4_SOURCES[chainId], MISBEHAVING_TOKENS, DEVNET_CURVE_SOURCES[chainId], DEVNET_CURVE_TOKENS, DEVNET_CURVE_TOKEN_PRICES_USD];
  const profile = { pools: options.pools, tokens: options.tokens, seed: options.seed, traders: options.traders };
  const key = createHash('sha256').update(JSON.stringify({ v: 4, chainId, profile, seeds, bytecodes })).digest('hex').slice(0, 16);
  const base = join(options.cacheDir!, `scale-${chainId}-${key}`);
  return { state: `${base}.state.json`, meta: `${base}.json` };
}

interface CachedChain {
  readonly chain: ManifestChain;
  readonly scale: { seeder: Address; tokens: { address: Address; symbol: string; decimals: number; priceUsd: string }[]; pools: ScaleDeployment['pools'] };
}

const fresh = (path: string) => existsSync(path) && Date.now() - statSync(path).mtimeMs < SCALE_CACHE_MAX_AGE_MS;

/** The manifest's summary of a scale deployment. */
function scaleSummary(scale: ScaleDeployment): NonNullable<ManifestChain['scale']> {
  const pools = { 'uniswap-v2': 0, stable: 0, core: 0, 'uniswap-v3': 0, algebra: 0, 'uniswap-v4': 0, 'curve-stableswap-ng': 0, 'curve-twocrypto-ng': 0 };
  for (const p of scale.pools) pools[p.kind] += 1;
  return { seeder: scale.seeder, tokens: scale.tokens.map((t) => ({ name: t.symbol, symbol: t.symbol, decimals: t.decimals, address: t.address })), pools };
}

/** Starts one fresh anvil chain per entry of `ports` and deploys the base contracts on each, in parallel. */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const nodes: AnvilNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    if (options.logDir) mkdirSync(options.logDir, { recursive: true });
    const chainIds = Object.keys(options.ports).map(Number);
    const scale = new Map<number, ScaleDeployment>();
    const chains = await Promise.all(
      chainIds.map(async (chainId): Promise<ManifestChain> => {
        const cache = options.scale?.cacheDir ? scaleCache(options.scale, chainId) : undefined;
        const cached = cache && fresh(cache.state) && fresh(cache.meta);
        const node = await startAnvil({
          chainId,
          port: options.ports[chainId],
          host: options.host,
          blockTime: options.blockTime,
          logFile: options.logDir ? join(options.logDir, `anvil-${chainId}.log`) : undefined,
          ...(cached ? { loadState: cache.state } : {}),
          // Thousands of pools: old block states are dropped (reads at them are refused, as by a pruned node).
          ...(options.scale ? { maxPersistedStates: SCALE_PERSISTED_STATES } : {}),
        });
        nodes.push(node);
        if (cached) {
          const saved = JSON.parse(readFileSync(cache.meta, 'utf8')) as CachedChain;
          const deployed: ScaleDeployment = { ...saved.scale, tokens: saved.scale.tokens.map((t) => ({ ...t, priceUsd: BigInt(t.priceUsd) })) };
          scale.set(chainId, deployed);
          return { ...saved.chain, rpcUrl: node.rpcUrl, scale: scaleSummary(deployed) };
        }
        const ctx = deployContext(chainId, node.rpcUrl);
        const base = await deployLaunchpad(ctx, await deployAmm(ctx, await deployMisbehavingTokens(ctx, await deploySources(ctx, await deployBase(ctx)))));
        const chain = (await deployRouter(ctx, await withCurve(ctx, await withUniswapV4(ctx, await deployConcentrated(ctx, base))))) as ManifestChain;
        if (!options.scale) return chain;
        const deployed = await deployScale(ctx, chain, options.scale);
        scale.set(chainId, deployed);
        if (cache) await saveScaleCache(node, chain, deployed, cache);
        return { ...chain, scale: scaleSummary(deployed) };
      }),
    );
    const manifest = devnetManifestSchema.parse({
      version: 1,
      createdAt: new Date().toISOString(),
      gatewayUrl: options.gatewayUrl,
      accounts: devAccounts(),
      chains: Object.fromEntries(chains.map((c) => [String(c.chainId), c])),
    });
    return { manifest, nodes, stop, ...(options.scale ? { scale } : {}) };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Keeps a seeded chain for the next start: anvil's state (blocks, transactions, logs) and what was deployed. */
async function saveScaleCache(node: AnvilNode, chain: ManifestChain, deployed: ScaleDeployment, cache: { state: string; meta: string }): Promise<void> {
  const response = await fetch(node.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
  });
  const { result, error } = (await response.json()) as { result?: Hex; error?: { message: string } };
  if (!result) throw new Error(`anvil_dumpState on chain ${chain.chainId}: ${error?.message ?? 'no state'}`);
  mkdirSync(dirname(cache.state), { recursive: true });
  // anvil answers the dump gzipped and hex-encoded; `--load-state` reads the JSON itself. The call traces of
  // the seeding transactions are nine tenths of it and nothing reads them: they are left out.
  const state = JSON.parse(gunzipSync(Buffer.from(result.slice(2), 'hex')).toString('utf8')) as { transactions?: { info?: { traces?: unknown[] } }[] };
  for (const tx of state.transactions ?? []) if (tx.info) tx.info.traces = [];
  writeAtomically(cache.state, JSON.stringify(state));
  const meta: CachedChain = { chain, scale: { ...deployed, tokens: deployed.tokens.map((t) => ({ ...t, priceUsd: t.priceUsd.toString() })) } };
  writeAtomically(cache.meta, JSON.stringify(meta));
}

function writeAtomically(path: string, data: string | Buffer): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** Writes the manifest atomically (a reader never sees half a file). */
export function writeManifest(path: string, manifest: DevnetManifest): void {
  mkdirSync(dirname(path), { recursive: true });
  writeAtomically(path, JSON.stringify(manifest, null, 2) + '\n');
}

export function readManifest(path: string): DevnetManifest {
  return devnetManifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
