/**
 * Loops that pay at zero-size rates, found and cut before a solve (`orient`) so that it does not pump them, and the
 * forbidden pairs the flows' prices say can be turned.
 */
import { FlowGraph } from './flow-graph';
import type { FlowArc } from './flow-route';
import { pairFrom, pairKey, pairTo } from './pairs';
import { levelRates } from './token-order';

/** Profitable loops broken by `orient` at most; beyond, the flows' own loops are broken as they come. */
const MAX_ORIENT_CUTS = 64;

/**
 * Token pairs with their best zero-size rates (`rate`, by `pairKey`), and as `payingLoop` reads them: each pair's
 * tokens and -log of its rate.
 */
interface RatedPairs {
  readonly rate: ReadonlyMap<number, number>;
  readonly pairs: readonly number[];
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly weight: Float64Array;
}

/** The pairs of `count` legs (leg k from token `from(k)` to `to(k)` at zero-size rate `rateOf(k)`) that pay anything. */
function ratedPairs(count: number, from: (k: number) => number, to: (k: number) => number, rateOf: (k: number) => number): RatedPairs {
  const rate = new Map<number, number>();
  for (let k = 0; k < count; k++) {
    const pair = pairKey(from(k), to(k));
    if (rateOf(k) > (rate.get(pair) ?? 0)) rate.set(pair, rateOf(k));
  }
  const pairs = [...rate.keys()];
  return {
    rate,
    pairs,
    from: Int32Array.from(pairs, pairFrom),
    to: Int32Array.from(pairs, pairTo),
    weight: Float64Array.from(pairs, (p) => -Math.log(rate.get(p)!)),
  };
}

/**
 * A loop of the pairs (those not `left` out, 1 at a pair's index) whose zero-size rates multiply to more than 1
 * (Bellman-Ford on -log rate), as its pairs; undefined when none pays. After each round the tokens' predecessor
 * links are walked: a loop among them is a loop that pays (its weights sum below zero, checked), found after about
 * as many rounds as it has pairs rather than after one round per token.
 */
function payingLoop(tokenCount: number, rated: RatedPairs, left?: Uint8Array): number[] | undefined {
  const { pairs, from, to, weight } = rated;
  const dist = new Float64Array(tokenCount);
  const via = new Int32Array(tokenCount).fill(-1);
  // The walk that last visited each token (walks are numbered on across rounds, so a round's walks are those from
  // its first on and no clearing is needed).
  const walk = new Int32Array(tokenCount);
  let walks = 0;
  /** A paying loop of the predecessor links, if they hold one. */
  const linkedLoop = (): number[] | undefined => {
    const first = walks + 1;
    for (let start = 0; start < tokenCount; start++) {
      if (walk[start] >= first) continue;
      const id = ++walks;
      let t = start;
      while (t >= 0 && walk[t] < first) {
        walk[t] = id;
        t = via[t] >= 0 ? from[via[t]] : -1;
      }
      if (t < 0 || walk[t] !== id) continue;
      // t is on a loop of this walk: around it.
      const loop: number[] = [];
      let sum = 0;
      let u = t;
      do {
        loop.push(pairs[via[u]]);
        sum += weight[via[u]];
        u = from[via[u]];
      } while (u !== t);
      if (sum < -1e-12) return loop;
    }
    return undefined;
  };
  for (let round = 0; round < tokenCount; round++) {
    let relaxed = false;
    for (let k = 0; k < pairs.length; k++) {
      if (left && left[k]) continue;
      const d = dist[from[k]] + weight[k];
      if (d < dist[to[k]] - 1e-12) {
        dist[to[k]] = d;
        via[to[k]] = k;
        relaxed = true;
      }
    }
    if (!relaxed) return undefined;
    const loop = linkedLoop();
    if (loop) return loop;
  }
  return undefined;
}

/**
 * When the flow graph's zero-size rates close a loop that pays (a free arbitrage loop the flows would pump, at many
 * times the trade), forbids before any solve the token pairs that let them: each pair with legs both ways keeps the
 * direction a trade through it pays more in (the best zero-size rate from tokenIn to its first token, times the
 * pair's, times the best from its second token to tokenOut: `levelRates`); then, while a loop still
 * pays, its pair with the least such through rate is forbidden. Pairs in `forbidden` stay so; the new ones are
 * added to it. A graph without a paying loop is left as it is (false). The growth rounds turn a forbidden pair back when
 * the flows' prices say it pays (`growFlows`).
 */
export function orient(graph: FlowGraph, forbidden: Set<number>, flowing: readonly FlowArc[] = []): boolean {
  const carried = new Set(flowing.map((a) => pairKey(a.from, a.to)));
  const rated = ratedPairs(
    graph.legs.length,
    (e) => graph.from[e],
    (e) => graph.to[e],
    (e) => graph.legs[e].spotRate,
  );
  const { rate, pairs } = rated;
  const at = new Map(pairs.map((pair, k) => [pair, k]));
  const left = Uint8Array.from(pairs, (pair) => (forbidden.has(pair) ? 1 : 0));
  const forbid = (pair: number): void => {
    forbidden.add(pair);
    const k = at.get(pair);
    if (k !== undefined) left[k] = 1;
  };
  const n = graph.tokens.length;
  let loop = payingLoop(n, rated, left);
  if (!loop) return false;
  const reach = levelRates(graph, true);
  const value = levelRates(graph, false);
  const through = (pair: number): number => reach[pairFrom(pair)] * rate.get(pair)! * value[pairTo(pair)];
  for (const pair of pairs) {
    const [u, v] = [pairFrom(pair), pairTo(pair)];
    const back = pairKey(v, u);
    if (u > v || !rate.has(back) || forbidden.has(pair) || forbidden.has(back)) continue;
    if (carried.has(pair) || carried.has(back)) forbid(carried.has(pair) ? back : pair);
    else forbid(through(pair) >= through(back) ? back : pair);
  }
  for (let cut = 0; cut < MAX_ORIENT_CUTS; cut++) {
    loop = payingLoop(n, rated, left);
    if (!loop) return true;
    const free = loop.filter((pair) => !carried.has(pair));
    if (free.length === 0) return true;
    forbid(free.reduce((weakest, pair) => (through(pair) < through(weakest) ? pair : weakest)));
  }
  return true;
}

/**
 * Forbidden pairs the flows' prices say pay (a leg of the pair beats the price ratio of its tokens by `margin`)
 * and that cannot close a loop with the flows (they go from a token on the flow to one later on it, or off it):
 * turned, the other direction of the pair forbidden in their place. Returns how many.
 */
export function turnForbidden(graph: FlowGraph, forbidden: Set<number>, prices: Float64Array, rank: Int32Array, margin: number): number {
  const turned = new Set<number>();
  for (let e = 0; e < graph.legs.length; e++) {
    const [u, v] = [graph.from[e], graph.to[e]];
    const pair = pairKey(u, v);
    if (!forbidden.has(pair) || !(prices[u] > 0) || !(prices[v] > 0)) continue;
    if (rank[u] < 0 || (rank[v] >= 0 && rank[v] <= rank[u])) continue;
    if (graph.legs[e].spotRate * prices[v] > prices[u] * (1 + margin)) turned.add(pair);
  }
  for (const pair of turned) {
    forbidden.delete(pair);
    forbidden.add(pairKey(pairTo(pair), pairFrom(pair)));
  }
  return turned.size;
}

/** Whether the arcs close a loop whose legs' zero-size rates multiply to more than 1 (`payingLoop` on their pairs). */
export function arcsPay(arcs: readonly FlowArc[], tokenCount: number): boolean {
  const rated = ratedPairs(
    arcs.length,
    (k) => arcs[k].from,
    (k) => arcs[k].to,
    (k) => arcs[k].leg.spotRate,
  );
  return payingLoop(tokenCount, rated) !== undefined;
}
