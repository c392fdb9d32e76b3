/**
 * The part of a chain's graph the optimum of one trade is solved on (`interior-flow.ts`): tokenIn, tokenOut and the
 * tokens worth passing through, with the admitted pools between them (the deepest few per pair and the one with
 * the best rate), no leg into tokenIn nor out of tokenOut. It starts small and grows where prices say it pays:
 *
 * - it starts with the tokens of the best one-path route and the tokens with the best through rates (the best
 *   zero-size rate from tokenIn to the token over up to two legs, times the best from it to tokenOut over up to
 *   two legs), as far as those beat the best one-path route's marginal rate (`FlowGraph.create`);
 * - priced by the optimum on it, the rest of the chain's graph is searched for detours (`profitableDetours`): a
 *   token outside whose best zero-size route back into the flow graph (one or two legs) is worth more, at the
 *   flow graph's prices, than what it costs to reach it from a token inside; and pools of a pair inside that its
 *   cap left out whose zero-size rate beats the pair's prices (`admitLeftOut`). Those join and the optimum is
 *   solved again; none found means no flow through the rest of the graph can do better to the first order.
 */
import { admits, pairLegs, patchedFrom, type ChainGraph, type SourceFilter } from '../graph/chain-graph';
import type { Leg } from '../pools/legs';

export const DEFAULT_FLOW_TOKENS = 12;
export const DEFAULT_FLOW_POOLS_PER_PAIR = 6;

/** Best zero-size rates of the chain graphs' leg lists without a filter (a list never changes once built). */
const bestRates = new WeakMap<readonly Leg[], number>();

/** The best admitted zero-size rate of a token pair's legs (0 without one). */
function pairRate(legs: readonly Leg[] | undefined, filter: SourceFilter | undefined): number {
  if (!legs) return 0;
  if (!filter) {
    const known = bestRates.get(legs);
    if (known !== undefined) return known;
  }
  let rate = 0;
  for (const leg of legs) if (leg.spotRate > rate && (!filter || admits(filter, leg.pool.routerIndex, leg.pool.address))) rate = leg.spotRate;
  if (!filter) bestRates.set(legs, rate);
  return rate;
}

export interface FlowGraphOptions {
  readonly filter?: SourceFilter;
  /** Intermediate tokens taken at the start by through rate (besides `keep`). Default 12. */
  readonly startTokens?: number;
  /** Pools per token pair (the deepest, and the best rate). Default 6. */
  readonly poolsPerPair?: number;
  /** Tokens kept whatever their rate (the best one-path route's). */
  readonly keep?: readonly string[];
  /** Tokens whose through rate is below this (tokenOut per tokenIn, base units) do not start. Default 0. */
  readonly minThroughRate?: number;
}

export class FlowGraph {
  /** Lower-case addresses; index 0 is tokenIn, index 1 tokenOut. */
  readonly tokens: string[] = [];
  readonly legs: Leg[] = [];
  /** Per leg, the index of its token in and out. */
  readonly from: number[] = [];
  readonly to: number[] = [];
  readonly index = new Map<string, number>();
  /** The legs in the flow graph. */
  private readonly taken = new Set<Leg>();

  private constructor(
    readonly chain: ChainGraph,
    readonly filter: SourceFilter | undefined,
    readonly poolsPerPair: number,
  ) {}

  /** The starting flow graph of a trade (see the module note); undefined when tokenIn cannot reach tokenOut in it. */
  static create(chain: ChainGraph, tokenIn: string, tokenOut: string, options: FlowGraphOptions = {}): FlowGraph | undefined {
    const from = tokenIn.toLowerCase();
    const to = tokenOut.toLowerCase();
    if (from === to) return undefined;
    const filter = options.filter;
    const rates = pairRatesOf(chain, filter);
    const fromId = rates.id.get(from);
    const toId = rates.id.get(to);
    if (fromId === undefined || toId === undefined) return undefined;
    // The best rate from tokenIn to each token over one leg, then two (not through tokenOut), in the order the tokens
    // were first reached; the best rate from each token to tokenOut likewise (not through tokenIn).
    const { rate: forward, via: forwardVia, reached } = twoLegRates(rates.outStart, rates.outTo, rates.outRate, fromId, toId);
    const { rate: backward, via: backwardVia } = twoLegRates(rates.inStart, rates.inFrom, rates.inRate, toId, fromId);
    const minRate = options.minThroughRate ?? 0;
    const through: [number, number][] = [];
    for (const t of reached) {
      if (t === toId) continue;
      const b = backward[t];
      if (b > 0 && forward[t] * b > 0 && forward[t] * b >= minRate) through.push([t, forward[t] * b]);
    }
    through.sort((a, b) => b[1] - a[1]);
    const start = [from, to];
    for (const t of options.keep ?? []) start.push(t.toLowerCase());
    const starting = through.slice(0, options.startTokens ?? DEFAULT_FLOW_TOKENS).map(([t]) => t);
    const build = (tokens: readonly string[]): FlowGraph | undefined => {
      const graph = new FlowGraph(chain, filter, options.poolsPerPair ?? DEFAULT_FLOW_POOLS_PER_PAIR);
      graph.add(tokens);
      return graph.prune() ? graph : undefined;
    };
    // When the tokens alone do not join tokenIn to tokenOut (no one-path route kept, their best rates two legs
    // away), the tokens their best rates pass through join too.
    const vias = starting.flatMap((t) => [forwardVia[t], backwardVia[t]].filter((v) => v >= 0).map((v) => rates.tokens[v]));
    const tokens = starting.map((t) => rates.tokens[t]);
    return build([...start, ...tokens]) ?? (vias.length > 0 ? build([...start, ...tokens, ...vias]) : undefined);
  }

  /** Adds tokens (lower case) with the legs between them and the tokens already in. */
  add(tokens: readonly string[]): void {
    const fresh: number[] = [];
    for (const t of tokens) {
      if (this.index.has(t)) continue;
      this.index.set(t, this.tokens.length);
      fresh.push(this.tokens.length);
      this.tokens.push(t);
    }
    if (fresh.length === 0) return;
    const isFresh = new Set(fresh);
    const link = (i: number, j: number) => {
      if (i === j || i === 1 || j === 0) return;
      for (const leg of pairLegs(this.chain, this.tokens[i], this.tokens[j], this.filter, this.poolsPerPair)) this.push(leg, i, j);
    };
    for (const i of fresh) {
      const byTarget = this.chain.legs.get(this.tokens[i]);
      if (byTarget) for (const t of byTarget.keys()) {
        const j = this.index.get(t);
        if (j !== undefined) link(i, j);
      }
      for (const src of this.chain.into.get(this.tokens[i]) ?? []) {
        const j = this.index.get(src);
        // Pairs of two fresh tokens were linked from the first side.
        if (j !== undefined && !isFresh.has(j)) link(j, i);
      }
    }
  }

  private push(leg: Leg, i: number, j: number): void {
    this.legs.push(leg);
    this.from.push(i);
    this.to.push(j);
    this.taken.add(leg);
  }

  /**
   * Admits the legs a pair's pool cap (`poolsPerPair`) left out whose zero-size rate beats the pair's price ratio
   * at `prices` (per token, tokenOut 1) by `margin`: a pool with more to give than the pools taken at their
   * optimum (a pair with more pools than the cap). Returns how many joined.
   */
  admitLeftOut(prices: Float64Array, margin: number): number {
    const found = this.leftOutBeating(prices, margin, false);
    for (const { leg, i, j } of found) this.push(leg, i, j);
    return found.length;
  }

  /**
   * Whether some leg a pair's pool cap left out beats the pair's price ratio at `prices` by `margin` (what
   * `admitLeftOut` would admit): a route priced at `prices` through the pools taken is not the optimum then.
   */
  hasLeftOutBeating(prices: Float64Array, margin: number): boolean {
    return this.leftOutBeating(prices, margin, true).length > 0;
  }

  /** The legs left out by a pair's cap that beat its price ratio at `prices` by `margin` (the first only, with `first`). */
  private leftOutBeating(prices: Float64Array, margin: number, first: boolean): { leg: Leg; i: number; j: number }[] {
    const found: { leg: Leg; i: number; j: number }[] = [];
    const n = this.tokens.length;
    for (let i = 0; i < n; i++) {
      if (i === 1 || !(prices[i] > 0)) continue;
      const byTarget = this.chain.legs.get(this.tokens[i]);
      if (!byTarget) continue;
      for (const [t, list] of byTarget) {
        if (list.length <= this.poolsPerPair) continue;
        const j = this.index.get(t);
        if (j === undefined || j === 0 || j === i || !(prices[j] > 0)) continue;
        for (const leg of list) {
          if (this.taken.has(leg) || (this.filter && !admits(this.filter, leg.pool.routerIndex, leg.pool.address))) continue;
          if (leg.spotRate * prices[j] > prices[i] * (1 + margin)) {
            found.push({ leg, i, j });
            if (first) return found;
          }
        }
      }
    }
    return found;
  }

  /** Keeps the tokens on some path from tokenIn to tokenOut (and their legs); false when there is none. */
  private prune(): boolean {
    const n = this.tokens.length;
    const reach = (start: number, forward: boolean): Uint8Array => {
      const seen = new Uint8Array(n);
      seen[start] = 1;
      for (let changed = true; changed; ) {
        changed = false;
        for (let e = 0; e < this.legs.length; e++) {
          const [a, b] = forward ? [this.from[e], this.to[e]] : [this.to[e], this.from[e]];
          if (seen[a] && !seen[b]) {
            seen[b] = 1;
            changed = true;
          }
        }
      }
      return seen;
    };
    const fromIn = reach(0, true);
    if (!fromIn[1]) return false;
    const toOut = reach(1, false);
    const keep = this.tokens.map((_, i) => i < 2 || (fromIn[i] && toOut[i]));
    if (keep.every(Boolean)) return true;
    const renumber = new Int32Array(n).fill(-1);
    const tokens = this.tokens.filter((_, i) => keep[i]);
    tokens.forEach((t, k) => (renumber[this.index.get(t)!] = k));
    const legs: Leg[] = [];
    const from: number[] = [];
    const to: number[] = [];
    for (let e = 0; e < this.legs.length; e++) {
      if (!keep[this.from[e]] || !keep[this.to[e]]) continue;
      legs.push(this.legs[e]);
      from.push(renumber[this.from[e]]);
      to.push(renumber[this.to[e]]);
    }
    this.tokens.splice(0, this.tokens.length, ...tokens);
    this.legs.splice(0, this.legs.length, ...legs);
    this.from.splice(0, this.from.length, ...from);
    this.to.splice(0, this.to.length, ...to);
    this.index.clear();
    tokens.forEach((t, k) => this.index.set(t, k));
    this.taken.clear();
    for (const leg of legs) this.taken.add(leg);
    return true;
  }
}

/** A token outside the flow graph worth adding, with the token it reaches the graph through (two-leg detours). */
export interface Detour {
  readonly token: string;
  readonly via?: string;
  /** Value gained per unit of value sent, at the prices: (detour value / price of the token sent) - 1. */
  readonly gain: number;
}

/**
 * The chain graph's token pairs by token number, each with its best admitted zero-size rate (pairs without one left
 * out): what the search for detours reads per token outside the flow graph, a few hundred thousand times a trade on
 * a large graph, as arrays instead of nested maps of addresses. Built once per graph and source filter (a graph is
 * never changed once built: `patchGraph` makes a new one); the pairs in each list keep the order of the graph's
 * maps, so that ties resolve as they would there.
 */
export class PairRates {
  readonly tokens: string[] = [];
  readonly id = new Map<string, number>();
  /** Pairs out of token i: outTo[outStart[i] .. outStart[i + 1]), with their rates. */
  readonly outStart: Int32Array;
  readonly outTo: Int32Array;
  readonly outRate: Float64Array;
  /** Pairs into token i: inFrom[inStart[i] .. inStart[i + 1]), with the rates of from -> i. */
  readonly inStart: Int32Array;
  readonly inFrom: Int32Array;
  readonly inRate: Float64Array;

  /**
   * These rates with the pairs `pairs` of `chain` rated again (every other pair as it is): undefined when one of them
   * would enter or leave the lists (a rate rising from or falling to 0).
   */
  patched(chain: ChainGraph, pairs: readonly (readonly [string, string])[]): PairRates | undefined {
    const outRate = Float64Array.from(this.outRate);
    const inRate = Float64Array.from(this.inRate);
    for (const [from, to] of pairs) {
      const u = this.id.get(from);
      const v = this.id.get(to);
      const rate = pairRate(chain.legs.get(from)?.get(to), undefined);
      const out = u === undefined || v === undefined ? -1 : indexOf(this.outTo, this.outStart[u], this.outStart[u + 1], v);
      const into = u === undefined || v === undefined ? -1 : indexOf(this.inFrom, this.inStart[v], this.inStart[v + 1], u);
      if (out < 0 || into < 0) {
        if (rate > 0) return undefined;
        continue;
      }
      if (!(rate > 0)) return undefined;
      outRate[out] = rate;
      inRate[into] = rate;
    }
    return Object.assign(Object.create(PairRates.prototype) as PairRates, this, { outRate, inRate });
  }

  constructor(chain: ChainGraph, filter: SourceFilter | undefined) {
    const idOf = (t: string): number => {
      let i = this.id.get(t);
      if (i === undefined) {
        i = this.tokens.length;
        this.id.set(t, i);
        this.tokens.push(t);
      }
      return i;
    };
    const out: [number, number, number][] = [];
    for (const [from, byTarget] of chain.legs) {
      const u = idOf(from);
      for (const [to, legs] of byTarget) {
        const rate = pairRate(legs, filter);
        if (rate > 0) out.push([u, idOf(to), rate]);
      }
    }
    const into: [number, number, number][] = [];
    for (const [to, sources] of chain.into) {
      const v = idOf(to);
      for (const from of sources) {
        const rate = pairRate(chain.legs.get(from)?.get(to), filter);
        if (rate > 0) into.push([v, idOf(from), rate]);
      }
    }
    const n = this.tokens.length;
    const lists = (pairs: [number, number, number][]): [Int32Array, Int32Array, Float64Array] => {
      const start = new Int32Array(n + 1);
      for (const [a] of pairs) start[a + 1]++;
      for (let i = 0; i < n; i++) start[i + 1] += start[i];
      const other = new Int32Array(pairs.length);
      const rate = new Float64Array(pairs.length);
      const fill = start.slice(0, n);
      // Stable: each token's pairs in the order the maps gave them.
      for (const [a, b, r] of pairs) {
        const k = fill[a]++;
        other[k] = b;
        rate[k] = r;
      }
      return [start, other, rate];
    };
    [this.outStart, this.outTo, this.outRate] = lists(out);
    [this.inStart, this.inFrom, this.inRate] = lists(into);
  }
}

/** Where `value` sits in `list[start .. end)`, or -1. */
function indexOf(list: Int32Array, start: number, end: number, value: number): number {
  for (let k = start; k < end; k++) if (list[k] === value) return k;
  return -1;
}

const pairRatesByGraph = new WeakMap<ChainGraph, Map<string, PairRates>>();

/** The pair rates of a chain graph under a source filter (built on first use). */
export function pairRatesOf(chain: ChainGraph, filter: SourceFilter | undefined): PairRates {
  let byFilter = pairRatesByGraph.get(chain);
  if (!byFilter) pairRatesByGraph.set(chain, (byFilter = new Map()));
  const key = filter ? `${filter.includeDexes?.join(',') ?? '-'}|${filter.excludeDexes?.join(',') ?? '-'}|${filter.excludePools?.join(',') ?? '-'}` : '';
  let rates = byFilter.get(key);
  if (!rates) byFilter.set(key, (rates = (!filter && fromPatch(chain)) || new PairRates(chain, filter)));
  return rates;
}

/**
 * The pair rates of a patched graph from those of the graph it was patched from (if they were built), the pairs it
 * touched rated again: undefined when a pair came or went, or a rate rose from or fell to 0 (the lists change).
 */
function fromPatch(chain: ChainGraph): PairRates | undefined {
  const patch = patchedFrom.get(chain);
  const previous = patch?.previous.deref();
  const base = previous && !patch!.structural ? pairRatesByGraph.get(previous)?.get('') : undefined;
  return base?.patched(chain, patch!.pairs);
}

/**
 * The best zero-size rates from `origin` to each token over one pair, then two, along pair lists (`start`, `other`,
 * `rate`: the lists out of each token, or into it for rates towards `origin`): per token its rate (0: none) and the
 * token the two-pair rate passes (-1: one pair), and the tokens in the order first reached. Nothing passes through
 * `end` nor comes back to `origin`.
 */
function twoLegRates(start: Int32Array, other: Int32Array, rate: Float64Array, origin: number, end: number): { rate: Float64Array; via: Int32Array; reached: number[] } {
  const best = new Float64Array(start.length - 1);
  const via = new Int32Array(start.length - 1).fill(-1);
  const reached: number[] = [];
  for (let p = start[origin]; p < start[origin + 1]; p++) {
    const t = other[p];
    if (t === origin || !(rate[p] > best[t])) continue;
    if (best[t] === 0) reached.push(t);
    best[t] = rate[p];
  }
  const one = Float64Array.from(best);
  for (const mid of reached.slice()) {
    const r1 = one[mid];
    if (mid === end || !(r1 > 0)) continue;
    for (let p = start[mid]; p < start[mid + 1]; p++) {
      const t = other[p];
      const r = r1 * rate[p];
      if (t === origin || !(r > best[t])) continue;
      if (best[t] === 0) reached.push(t);
      best[t] = r;
      via[t] = mid;
    }
  }
  return { rate: best, via, reached };
}

/**
 * Tokens outside the flow graph through which a detour pays at the flow graph's `prices` (per token, tokenOut 1):
 * u (inside) -> t (-> s) -> v (inside) whose zero-size rates carry a unit of u to more than its price. Best gain
 * first, at most `max`. The value of a token outside is its best zero-size route back into the graph.
 *
 * `rank` orders the tokens inside along the current flow (its depth; -1 off the flow): a detour from u must end at
 * a token ranked after u, or off the flow, or it would close a loop with the flow. With `rankedOnly`, it must end
 * at a ranked token ranked after u (and start at a ranked one).
 */
export function profitableDetours(graph: FlowGraph, prices: Float64Array, margin: number, max: number, rank?: Int32Array, rankedOnly = false): Detour[] {
  const rates = pairRatesOf(graph.chain, graph.filter);
  const count = rates.tokens.length;
  const rankOf = (k: number) => (rank ? rank[k] : -1);
  // The flow graph's token at each token number (-1 outside), and its tokens' numbers.
  const insideAt = new Int32Array(count).fill(-1);
  const numbers = graph.tokens.map((t, k) => {
    const i = rates.id.get(t) ?? -1;
    if (i >= 0) insideAt[i] = k;
    return i;
  });
  // The best value of a unit of a token outside sent into the graph over one leg (back1*), over two via a token
  // (back2*); the tokens valued over one leg in the order they first were.
  const back1 = new Float64Array(count);
  const back1Rank = new Int32Array(count);
  const valued: number[] = [];
  for (let k = 0; k < numbers.length; k++) {
    const v = numbers[k];
    if (k === 0 || v < 0 || (rankedOnly && rankOf(k) < 0)) continue;
    for (let p = rates.inStart[v]; p < rates.inStart[v + 1]; p++) {
      const src = rates.inFrom[p];
      if (insideAt[src] >= 0) continue;
      const value = rates.inRate[p] * prices[k];
      if (value > 0 && value > back1[src]) {
        if (back1[src] === 0) valued.push(src);
        back1[src] = value;
        back1Rank[src] = rankOf(k);
      }
    }
  }
  const back2 = new Float64Array(count);
  const back2Rank = new Int32Array(count);
  const back2Via = new Int32Array(count);
  for (const s of valued) {
    const sValue = back1[s];
    for (let p = rates.inStart[s]; p < rates.inStart[s + 1]; p++) {
      const src = rates.inFrom[p];
      if (insideAt[src] >= 0 || src === s) continue;
      const value = rates.inRate[p] * sValue;
      if (value > back1[src] && value > back2[src]) {
        back2[src] = value;
        back2Rank[src] = back1Rank[s];
        back2Via[src] = s;
      }
    }
  }
  const gains = new Float64Array(count).fill(-Infinity);
  const gainVia = new Int32Array(count).fill(-1);
  const found: number[] = [];
  for (let k = 0; k < numbers.length; k++) {
    const u = numbers[k];
    if (k === 1 || u < 0) continue;
    const price = prices[k];
    const from = rankOf(k);
    if (!(price > 0) || (rankedOnly && from < 0)) continue;
    for (let p = rates.outStart[u]; p < rates.outStart[u + 1]; p++) {
      const t = rates.outTo[p];
      if (insideAt[t] >= 0) continue;
      const two = back2[t] > 0;
      const value = two ? back2[t] : back1[t];
      if (!(value > 0)) continue;
      const backRank = two ? back2Rank[t] : back1Rank[t];
      if ((from >= 0 && backRank >= 0 && backRank <= from) || (rankedOnly && backRank <= from)) continue;
      const gain = (rates.outRate[p] * value) / price - 1;
      if (gain > margin && gain > gains[t]) {
        if (gains[t] === -Infinity) found.push(t);
        gains[t] = gain;
        gainVia[t] = two ? back2Via[t] : -1;
      }
    }
  }
  return found
    .map((t): Detour => ({ token: rates.tokens[t], ...(gainVia[t] >= 0 ? { via: rates.tokens[gainVia[t]] } : {}), gain: gains[t] }))
    .sort((a, b) => b.gain - a.gain)
    .slice(0, max);
}
