/**
 * Candidate paths from tokenIn to tokenOut: token sequences without repeats, of 1 to `maxHops` hops, each hop
 * the deepest `poolsPerPair` admitted pools between its two tokens, the direct path (tokenIn -> tokenOut) every
 * admitted pool of the pair up to `directPools` (a pair's pools are all a direct route can split across, and there
 * is one direct path: a pair traded on V2, stable, core and several concentrated pools has more than 4). Paths are found from both ends: a
 * 2-hop path is tokenIn -> X -> tokenOut with X a neighbour of tokenIn; a 3-hop path is
 * tokenIn -> X -> Y -> tokenOut with X among tokenIn's neighbours and Y among the tokens that trade into
 * tokenOut, joined where a pool X/Y exists. From each end the deepest tokens are taken (measured in the
 * end token's own units, so they compare): `maxNeighbours`, or more while the join stays within `maxJoins`;
 * shorter paths come first and the list stops at `maxPaths`.
 */
import { admits, pairLegs, type ChainGraph, type SourceFilter } from '../graph/chain-graph';
import type { Leg } from '../pools/legs';

export interface CandidatePath {
  /** Token addresses, lower case, tokenIn first. */
  readonly tokens: readonly string[];
  /** Per hop, its parallel pools (legs from tokens[i] to tokens[i+1]). */
  readonly hops: readonly (readonly Leg[])[];
}

export interface PathOptions {
  /** 1 for direct swaps only; up to 3 with multi-hop. */
  readonly maxHops: number;
  /** Parallel pools considered per hop (the deepest). Default 6 (`DEFAULT_POOLS_PER_PAIR`). */
  readonly poolsPerPair?: number;
  /** Parallel pools considered on the direct path (the deepest of the pair). Default 16, at least `poolsPerPair`. */
  readonly directPools?: number;
  /** Cap on the number of paths. Default 1,000. */
  readonly maxPaths?: number;
  /**
   * Intermediate tokens taken from each end (the deepest). Default 64; an end may take more while the
   * 3-hop join stays within `maxJoins` token pairs (so a thin token next to a hub still sees all of it).
   */
  readonly maxNeighbours?: number;
  /** Token pairs (X, Y) examined for 3-hop paths. Default 8,192. */
  readonly maxJoins?: number;
  readonly filter?: SourceFilter;
}

export const DEFAULT_POOLS_PER_PAIR = 6;
export const DEFAULT_DIRECT_POOLS = 16;
export const DEFAULT_MAX_PATHS = 1_000;
export const DEFAULT_MAX_NEIGHBOURS = 64;
export const DEFAULT_MAX_JOINS = 8_192;

export function enumeratePaths(graph: ChainGraph, tokenIn: string, tokenOut: string, options: PathOptions): CandidatePath[] {
  const from = tokenIn.toLowerCase();
  const to = tokenOut.toLowerCase();
  const maxHops = Math.max(1, Math.min(3, Math.floor(options.maxHops)));
  const poolsPerPair = options.poolsPerPair ?? DEFAULT_POOLS_PER_PAIR;
  const maxPaths = options.maxPaths ?? DEFAULT_MAX_PATHS;
  const maxNeighbours = options.maxNeighbours ?? DEFAULT_MAX_NEIGHBOURS;
  const filter = options.filter;
  const paths: CandidatePath[] = [];
  if (from === to) return paths;

  const legsBetween = (a: string, b: string): Leg[] => pairLegs(graph, a, b, filter, poolsPerPair);
  const add = (tokens: string[]): boolean => {
    const hops: Leg[][] = [];
    for (let i = 0; i + 1 < tokens.length; i++) {
      const legs = legsBetween(tokens[i], tokens[i + 1]);
      if (legs.length === 0) return false;
      hops.push(legs);
    }
    paths.push({ tokens, hops });
    return true;
  };

  const direct = pairLegs(graph, from, to, filter, options.directPools ?? Math.max(poolsPerPair, DEFAULT_DIRECT_POOLS));
  if (direct.length > 0) paths.push({ tokens: [from, to], hops: [direct] });
  if (maxHops < 2) return paths;

  // Neighbours of tokenIn, deepest first: depth of the legs from tokenIn, in tokenIn's units.
  const outward: [string, number][] = [];
  for (const [mid, legs] of graph.legs.get(from) ?? []) {
    if (mid === to) continue;
    const admitted = legs.find((l) => legsAdmitted(filter, l));
    if (admitted) outward.push([mid, admitted.liquidity]);
  }
  outward.sort((a, b) => b[1] - a[1]);

  for (const [mid] of outward.slice(0, maxNeighbours)) {
    if (paths.length >= maxPaths) return paths;
    add([from, mid, to]);
  }
  if (maxHops < 3) return paths;

  // Tokens trading into tokenOut, deepest first: depth in tokenOut's units (input depth times the spot rate).
  const inward: [string, number][] = [];
  for (const mid of graph.into.get(to) ?? []) {
    if (mid === from) continue;
    let depth = 0;
    for (const l of graph.legs.get(mid)?.get(to) ?? []) if (legsAdmitted(filter, l)) depth = Math.max(depth, l.liquidity * l.spotRate);
    if (depth > 0) inward.push([mid, depth]);
  }
  inward.sort((a, b) => b[1] - a[1]);
  const maxJoins = options.maxJoins ?? DEFAULT_MAX_JOINS;
  const firstCount = Math.min(outward.length, Math.max(maxNeighbours, Math.floor(maxJoins / Math.max(1, Math.min(inward.length, maxNeighbours)))));
  const lastCount = Math.min(inward.length, Math.max(maxNeighbours, Math.floor(maxJoins / Math.max(1, firstCount))));
  const firsts = outward.slice(0, firstCount).map(([t]) => t);
  const lasts = inward.slice(0, lastCount).map(([t]) => t);

  for (const x of firsts) {
    const fromX = graph.legs.get(x);
    if (!fromX) continue;
    for (const y of lasts) {
      if (paths.length >= maxPaths) return paths;
      if (y === x || !fromX.has(y)) continue;
      add([from, x, y, to]);
    }
  }
  return paths;
}

const legsAdmitted = (filter: SourceFilter | undefined, leg: Leg): boolean => admits(filter, leg.pool.routerIndex, leg.pool.address);

/** Paths enumerated on each graph, by query (a graph never changes: a new block builds a new one). */
const enumerated = new WeakMap<ChainGraph, Map<string, readonly CandidatePath[]>>();
/** Queries remembered per graph before the memo starts over. */
const MAX_MEMO_QUERIES = 4_096;

const filterKey = (filter: SourceFilter | undefined): string => (filter ? `${filter.includeDexes?.join(',') ?? ''}/${filter.excludeDexes?.join(',') ?? ''}/${filter.excludePools?.join(',') ?? ''}` : '');

/**
 * `enumeratePaths`, remembered per graph: the candidate paths of a pair do not depend on the amount, so a pair
 * asked again on the same graph (popular pairs are asked many times a block) costs a lookup. The paths are
 * shared: callers read them, never change them.
 */
export function candidatePaths(graph: ChainGraph, tokenIn: string, tokenOut: string, options: PathOptions): readonly CandidatePath[] {
  const o = options;
  const key = `${tokenIn.toLowerCase()}|${tokenOut.toLowerCase()}|${o.maxHops}|${o.poolsPerPair ?? ''}|${o.directPools ?? ''}|${o.maxPaths ?? ''}|${o.maxNeighbours ?? ''}|${o.maxJoins ?? ''}|${filterKey(o.filter)}`;
  let memo = enumerated.get(graph);
  if (!memo) enumerated.set(graph, (memo = new Map()));
  let paths = memo.get(key);
  if (!paths) {
    if (memo.size >= MAX_MEMO_QUERIES) memo.clear();
    paths = enumeratePaths(graph, tokenIn, tokenOut, options);
    memo.set(key, paths);
  }
  return paths;
}
