/**
 * The liquidity graph of one chain: tokens are nodes, each pool gives an edge per direction it can trade
 * (a leg). Built from a plain snapshot, no I/O; the service rebuilds it when its state changes (each block).
 * Source filters (`includeDexes` / `excludeDexes`) apply per query, so one graph serves every request.
 */
import { legsOf, type Leg } from '../pools/legs';
import type { PoolSnapshot, RoutingSnapshot } from '../pools/pool-snapshot';

export interface ChainGraph {
  readonly chainId: number;
  readonly blockNumber?: bigint;
  /** Legs leaving a token, by the token they reach, deepest first; keys are lower-case addresses. */
  readonly legs: ReadonlyMap<string, ReadonlyMap<string, readonly Leg[]>>;
  /** Tokens with legs into a token (lower case), for searching paths from both ends. */
  readonly into: ReadonlyMap<string, ReadonlySet<string>>;
  /** Lower-case address -> the address as the snapshot spells it. */
  readonly tokens: ReadonlyMap<string, string>;
  readonly poolCount: number;
}

/** Which sources a query may use, by routerIndex; `includeDexes` wins over `excludeDexes` (as on /v2/route). */
export interface SourceFilter {
  readonly includeDexes?: readonly number[];
  readonly excludeDexes?: readonly number[];
  /** Pools left out whatever their source (lower-case addresses): pools a route's simulation found failing. */
  readonly excludePools?: readonly string[];
}

/** Lower-case spellings of the addresses seen, so a graph built every block does not spell them again. */
const lowered = new Map<string, string>();
function lower(address: string): string {
  let value = lowered.get(address);
  if (value === undefined) {
    value = address.toLowerCase();
    if (lowered.size >= 200_000) lowered.clear();
    lowered.set(address, value);
  }
  return value;
}

export class InvalidSnapshotError extends Error {
  override readonly name = 'InvalidSnapshotError';
}

/** A pool's identity in a graph: its source, address and tokens (a graph holds each once). */
export const poolKey = (pool: PoolSnapshot): string => `${pool.routerIndex}:${lower(pool.address)}:${lower(pool.token0)}:${lower(pool.token1)}`;

/**
 * The order of a pair's legs: deepest first, then by pool (source, address), so that it is the same whatever order
 * the pools came in.
 */
function byDepth(a: Leg, b: Leg): number {
  const deeper = b.liquidity - a.liquidity;
  if (deeper !== 0) return deeper;
  const ka = poolKey(a.pool);
  const kb = poolKey(b.pool);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

const byKey = <V>(a: [string, V], b: [string, V]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
/** A map with its keys in ascending order. */
const sortedMap = <V>(map: ReadonlyMap<string, V>): Map<string, V> => new Map([...map].sort(byKey));
/** A set in ascending order. */
const sortedSet = (set: ReadonlySet<string>): Set<string> => new Set([...set].sort());

/**
 * The graph of a snapshot. `legsFor` gives each pool's legs (default `legsOf`): a caller that keeps the legs of
 * pools that did not change between two blocks passes them back instead of building them again.
 */
export function buildGraph(snapshot: RoutingSnapshot, legsFor: (pool: PoolSnapshot) => readonly Leg[] = legsOf): ChainGraph {
  const legs = new Map<string, Map<string, Leg[]>>();
  const tokens = new Map<string, string>();
  const into = new Map<string, Set<string>>();
  const seen = new Set<string>();
  for (const pool of snapshot.pools) {
    // Lower-cased once per pool: a leg goes between the pool's two tokens (spelt as the pool spells them).
    const t0 = lower(pool.token0);
    const t1 = lower(pool.token1);
    const key = poolKey(pool);
    if (seen.has(key)) throw new InvalidSnapshotError(`pool ${pool.address} is listed twice`);
    seen.add(key);
    if (t0 === t1) throw new InvalidSnapshotError(`pool ${pool.address} trades a token against itself`);
    for (const leg of legsFor(pool)) {
      const from = leg.tokenIn === pool.token0 ? t0 : leg.tokenIn === pool.token1 ? t1 : lower(leg.tokenIn);
      const to = leg.tokenOut === pool.token1 ? t1 : leg.tokenOut === pool.token0 ? t0 : lower(leg.tokenOut);
      if (!tokens.has(from)) tokens.set(from, leg.tokenIn);
      if (!tokens.has(to)) tokens.set(to, leg.tokenOut);
      let byTarget = legs.get(from);
      if (!byTarget) legs.set(from, (byTarget = new Map()));
      let list = byTarget.get(to);
      if (!list) byTarget.set(to, (list = []));
      list.push(leg);
      let sources = into.get(to);
      if (!sources) into.set(to, (sources = new Set()));
      sources.add(from);
    }
  }
  for (const byTarget of legs.values()) for (const list of byTarget.values()) if (list.length > 1) list.sort(byDepth);
  return { chainId: snapshot.chainId, blockNumber: snapshot.blockNumber, ...canonicalOrder(legs, into, tokens, legs.keys(), into.keys()), poolCount: snapshot.pools.length };
}

/**
 * What a patched graph changed from the graph it was patched from (held weakly): the token pairs whose legs it
 * touched, and whether a pair came or went. What is derived from a whole graph (the pair rates of `flow-graph.ts`)
 * is then derived again for those pairs only.
 */
export interface GraphPatch {
  readonly previous: WeakRef<ChainGraph>;
  readonly pairs: readonly (readonly [from: string, to: string])[];
  readonly structural: boolean;
}

export const patchedFrom = new WeakMap<ChainGraph, GraphPatch>();

/** A pool's legs, as a graph holds them. */
export interface PoolLegs {
  readonly pool: PoolSnapshot;
  readonly legs: readonly Leg[];
}

/**
 * The graph `buildGraph` would give for `previous`'s pools less `removed` plus `added`, built by copying only
 * what the change touches: the legs of the token pairs of the pools removed or added (and the maps holding
 * them). Everything else is shared with `previous`, which stays as it was (routes may still be reading it).
 * `removed` must be pools of `previous` with the legs it was given for them; `added` new ones.
 */
export function patchGraph(previous: ChainGraph, change: { readonly blockNumber?: bigint; readonly removed: readonly PoolLegs[]; readonly added: readonly PoolLegs[] }): ChainGraph {
  // The maps and lists taken over from `previous` are changed only once copied (the `own*` sets).
  const legs = new Map(previous.legs) as Map<string, Map<string, Leg[]>>;
  const into = new Map(previous.into) as Map<string, Set<string>>;
  const tokens = new Map(previous.tokens);
  const ownInner = new Set<string>();
  const ownLists = new Set<string>();
  const ownSources = new Set<string>();
  const list = (from: string, to: string, create: boolean): Leg[] | undefined => {
    let inner = legs.get(from);
    if (!inner) {
      if (!create) return undefined;
      legs.set(from, (inner = new Map()));
      ownInner.add(from);
    } else if (!ownInner.has(from)) {
      legs.set(from, (inner = new Map(inner)));
      ownInner.add(from);
    }
    const key = `${from}|${to}`;
    let current = inner.get(to);
    if (!current) {
      if (!create) return undefined;
      inner.set(to, (current = []));
    } else if (!ownLists.has(key)) {
      inner.set(to, (current = [...current]));
    }
    ownLists.add(key);
    return current;
  };
  const sources = (to: string): Set<string> => {
    let set = into.get(to);
    if (!ownSources.has(to)) {
      into.set(to, (set = new Set(set ?? [])));
      ownSources.add(to);
    }
    return set!;
  };
  for (const { legs: removed } of change.removed) {
    for (const leg of removed) {
      const from = lower(leg.tokenIn);
      const to = lower(leg.tokenOut);
      const current = list(from, to, false);
      const at = current?.indexOf(leg) ?? -1;
      if (!current || at < 0) continue;
      current.splice(at, 1);
      if (current.length === 0) {
        const inner = legs.get(from)!;
        inner.delete(to);
        if (inner.size === 0) legs.delete(from);
        sources(to).delete(from);
      }
    }
  }
  for (const { legs: added } of change.added) {
    for (const leg of added) {
      const from = lower(leg.tokenIn);
      const to = lower(leg.tokenOut);
      if (!tokens.has(from)) tokens.set(from, leg.tokenIn);
      if (!tokens.has(to)) tokens.set(to, leg.tokenOut);
      list(from, to, true)!.push(leg);
      sources(to).add(from);
    }
  }
  for (const key of ownLists) {
    const [from, to] = key.split('|');
    const current = legs.get(from)?.get(to);
    if (current && current.length > 1) current.sort(byDepth);
  }
  for (const [to, set] of into) if (set.size === 0) into.delete(to);
  // What came in new (a token, a pair, a source of a token) went in last: put back in the canonical order, the maps
  // and sets it touched (a pool's new state, the common change, adds nothing new).
  const ordered = canonicalOrder(legs, into, tokens, ownInner, ownSources);
  const graph: ChainGraph = {
    chainId: previous.chainId,
    blockNumber: change.blockNumber ?? previous.blockNumber,
    ...ordered,
    poolCount: previous.poolCount - change.removed.length + change.added.length,
  };
  const pairs = [...ownLists].map((key) => key.split('|') as [string, string]);
  const structural = pairs.some(([from, to]) => !previous.legs.get(from)?.get(to) !== !legs.get(from)?.get(to));
  patchedFrom.set(graph, { previous: new WeakRef(previous), pairs, structural });
  return graph;
}

/**
 * A graph's maps and sets in their canonical order (every key ascending; each pair's legs are sorted `byDepth` by
 * the caller): searches walk them in order, and floats summed in another order round differently, so a route must
 * not depend on the order the pools were listed or patched in (two replicas of the service, loaded at different
 * blocks, answer alike). Only the inner maps of `ownInner` and the sets of `ownSources` are looked at (all of them
 * for a graph built whole; those `patchGraph` touched, where a key added, or taken out and put back, went in
 * last); each is sorted again where out of order, in place.
 */
function canonicalOrder(
  legs: Map<string, Map<string, Leg[]>>,
  into: Map<string, Set<string>>,
  tokens: Map<string, string>,
  ownInner: Iterable<string>,
  ownSources: Iterable<string>,
): { legs: Map<string, Map<string, Leg[]>>; into: Map<string, Set<string>>; tokens: Map<string, string> } {
  for (const from of ownInner) {
    const inner = legs.get(from);
    if (inner && !ascending(inner.keys())) legs.set(from, sortedMap(inner));
  }
  for (const to of ownSources) {
    const set = into.get(to);
    if (set && !ascending(set.values())) into.set(to, sortedSet(set));
  }
  return {
    legs: ascending(legs.keys()) ? legs : sortedMap(legs),
    into: ascending(into.keys()) ? into : sortedMap(into),
    tokens: ascending(tokens.keys()) ? tokens : sortedMap(tokens),
  };
}

/** Whether the keys come in ascending order. */
function ascending(keys: Iterable<string>): boolean {
  let last: string | undefined;
  for (const key of keys) {
    if (last !== undefined && key < last) return false;
    last = key;
  }
  return true;
}

/** Whether the filter admits a source. */
export function admits(filter: SourceFilter | undefined, routerIndex: number, pool?: string): boolean {
  if (!filter) return true;
  if (pool !== undefined && filter.excludePools && filter.excludePools.length > 0 && filter.excludePools.includes(pool.toLowerCase())) return false;
  if (filter.includeDexes && filter.includeDexes.length > 0) return filter.includeDexes.includes(routerIndex);
  if (filter.excludeDexes && filter.excludeDexes.length > 0) return !filter.excludeDexes.includes(routerIndex);
  return true;
}

/**
 * Up to `max` admitted legs from `tokenIn` to `tokenOut`: the deepest, except that the last place goes to the
 * leg with the best zero-size rate when none of the deeper ones has it (for `max` >= 2) (a cheap shallow pool, e.g. a lower
 * fee tier, is worth a share of a split).
 */
export function pairLegs(graph: ChainGraph, tokenIn: string, tokenOut: string, filter: SourceFilter | undefined, max: number): Leg[] {
  const list = graph.legs.get(tokenIn.toLowerCase())?.get(tokenOut.toLowerCase());
  if (!list || max <= 0) return [];
  const admitted = filter ? list.filter((leg) => admits(filter, leg.pool.routerIndex, leg.pool.address)) : list;
  if (admitted.length <= max) return [...admitted];
  const chosen = admitted.slice(0, max);
  if (max < 2) return chosen;
  let bestRate = 0;
  for (const leg of chosen.slice(0, max - 1)) bestRate = Math.max(bestRate, leg.spotRate);
  let cheapest: Leg | undefined;
  for (const leg of admitted.slice(max - 1)) if (leg.spotRate > bestRate && (!cheapest || leg.spotRate > cheapest.spotRate)) cheapest = leg;
  if (cheapest) chosen[max - 1] = cheapest;
  return chosen;
}
