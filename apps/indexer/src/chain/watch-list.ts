// What the indexer follows on a chain, from the sources file (the devnet manifest has its shape): the
// contracts that announce pools and launches (factories, the core router, the launchpad), and the tokens
// and pools known up front. Everything else is discovered from their events.
import { chainSourcesSchema, manifestPoolSchema, manifestTokenSchema, type SourceKind } from '@dex/messages';
import { readSourcesFile } from '@dex/service';
import { SERVICE } from '../config';
import { getAddress, type Address } from 'viem';
import { z } from 'zod';

export interface SourceRef {
  name: string;
  kind: SourceKind;
  routerIndex: number;
  feeBps: number | null;
  /** The block the source's announcing contract was deployed at, where the config says (a start at the head scans from it). */
  deploymentBlock?: number;
}

export interface ConfiguredPool extends SourceRef {
  address: Address;
  token0: Address;
  token1: Address;
}

export interface ChainWatchList {
  chainId: number;
  /** Contract -> the source whose pools or launches it announces. */
  announcers: Map<Address, SourceRef>;
  tokens: Address[];
  pools: ConfiguredPool[];
  /** The chain's wrapped native token, the other side of launchpad curves. */
  wrappedNative: Address | null;
}

const chainEntrySchema = z.looseObject({
  // Every kind the indexer follows: a Uniswap V4 source too, ahead of the services routing it.
  sources: chainSourcesSchema,
  tokens: z.array(manifestTokenSchema).optional(),
  wrappedNative: manifestTokenSchema.optional(),
  pools: z.array(manifestPoolSchema).optional(),
});
const fileSchema = z.object({ chains: z.record(z.string().regex(/^\d+$/), chainEntrySchema) });

/** Which address of a source announces its pools: the factory, the core router, the launchpad, the PoolManager. */
const ANNOUNCER_ROLE: Record<SourceKind, readonly string[]> = {
  'uniswap-v2': ['factory'],
  stable: ['factory'],
  core: ['router'],
  launchpad: ['launchpad', 'factory', 'router'],
  // The factories announce their pools (PoolCreated, Algebra's Pool); the facts of these pools (ticks, prices) come
  // with the concentrated-liquidity state, which decodes those events.
  'uniswap-v3': ['factory'],
  algebra: ['factory'],
  // The PoolManager (the source's `poolManager`, as the devnet and the deploy tool name it, or its `factory`) announces
  // its pools (Initialize) and emits every event of them.
  'uniswap-v4': ['poolManager', 'factory'],
  // Curve's NG factories announce their pools (PlainPoolDeployed, TwocryptoPoolDeployed).
  'curve-stableswap-ng': ['factory'],
  'curve-twocrypto-ng': ['factory'],
};

export function parseWatchLists(json: unknown, chainIds: readonly number[]): Map<number, ChainWatchList> {
  const file = fileSchema.parse(json);
  const lists = new Map<number, ChainWatchList>();
  for (const chainId of chainIds) {
    const entry = file.chains[String(chainId)];
    const list: ChainWatchList = { chainId, announcers: new Map(), tokens: [], pools: [], wrappedNative: null };
    lists.set(chainId, list);
    if (!entry) continue;
    const byIndex = new Map<number, SourceRef>();
    for (const source of entry.sources) {
      const ref: SourceRef = { name: source.name, kind: source.kind, routerIndex: source.routerIndex, feeBps: source.feeBps ?? null, ...(source.deploymentBlock === undefined ? {} : { deploymentBlock: source.deploymentBlock }) };
      byIndex.set(source.routerIndex, ref);
      for (const role of ANNOUNCER_ROLE[source.kind]) {
        const address = source.addresses[role];
        if (address) {
          list.announcers.set(getAddress(address), ref);
          break;
        }
      }
    }
    const tokens = new Set<Address>();
    if (entry.wrappedNative) {
      list.wrappedNative = getAddress(entry.wrappedNative.address);
      tokens.add(list.wrappedNative);
    }
    for (const token of entry.tokens ?? []) tokens.add(getAddress(token.address));
    for (const pool of entry.pools ?? []) {
      const source = byIndex.get(pool.routerIndex) ?? { name: pool.name, kind: pool.kind, routerIndex: pool.routerIndex, feeBps: null };
      list.pools.push({ ...source, kind: pool.kind, address: getAddress(pool.address), token0: getAddress(pool.token0), token1: getAddress(pool.token1) });
      tokens.add(getAddress(pool.token0));
      tokens.add(getAddress(pool.token1));
    }
    list.tokens = [...tokens];
  }
  return lists;
}

export function readWatchLists(path: string, chainIds: readonly number[]): Map<number, ChainWatchList> {
  return parseWatchLists(readSourcesFile(SERVICE, path), chainIds);
}
