/**
 * From the optimum's flows (`interior-flow.ts`) to a route RouterV2 executes, in integers.
 *
 * 1. The flows' arcs: the legs that carry more than a ten-millionth of the trade's value and a thousand base units
 *    in and out (smaller swaps lose more to integer rounding than they gain). A loop among them (the
 *    devnet, like a live chain, holds free arbitrage loops, e.g. a stable pool tilted off peg against a core
 *    pool at the oracle price) is not routed: `flowLoop` finds one and the caller solves again without one of
 *    its arcs. Tokens that would receive without passing on (or pass on without receiving) lose those legs.
 * 2. Stages: each token is spent in the stage of its depth, the longest chain of arcs from tokenIn to it, so it
 *    is spent whole after every stage that pays it; tokenIn in stage 0.
 * 3. Amounts: token by token in stage order, what is held of the token (the input, or what earlier stages paid
 *    of it, exactly) is shared across its legs in proportion to their flows, floor, the leg with the smallest
 *    flow taking the remainder; each share priced by the leg's exact quote. A share that would pay nothing is
 *    folded into the token's other legs. Those shares are then RouterV2's own split of what it holds
 *    (`router-replay.ts`), so the route executes exactly as quoted.
 */
import type { FlowGraph } from './flow-graph';
import type { Leg } from '../pools/legs';
import { replayStages } from '../route/router-replay';
import type { StagedSwap } from '../route/route';

/** A leg's share of the flow: how much of its token the leg takes, relatively. */
export interface FlowArc {
  /** The leg's index in the flow graph. */
  readonly index: number;
  readonly leg: Leg;
  readonly from: number;
  readonly to: number;
  readonly weight: number;
}

/** Flows smaller than this fraction of the trade's value are not arcs. */
const ARC_SHARE = 1e-7;
/**
 * Nor are flows that take or pay fewer base units than this: a swap's amounts round to whole units, so a swap
 * of a few hundred units loses a fraction of a percent of itself to rounding, more than it gains by splitting.
 */
const ARC_UNITS = 1_000;

/** The arcs of the flows (see ARC_SHARE, ARC_UNITS), weighted by the input the optimum gives them. */
export function flowArcs(graph: FlowGraph, inputs: Float64Array, outputs: Float64Array, prices: Float64Array, amountIn: number): FlowArc[] {
  const total = prices[0] * amountIn;
  const arcs: FlowArc[] = [];
  for (let e = 0; e < graph.legs.length; e++) {
    const value = prices[graph.from[e]] * inputs[e];
    if (value > total * ARC_SHARE && inputs[e] >= ARC_UNITS && outputs[e] >= ARC_UNITS) arcs.push({ index: e, leg: graph.legs[e], from: graph.from[e], to: graph.to[e], weight: inputs[e] });
  }
  return arcs;
}

/** A loop of the arcs' token graph (its arcs' indices), or undefined when there is none. */
export function flowLoop(arcs: readonly FlowArc[], tokenCount: number): number[] | undefined {
  const out: number[][] = Array.from({ length: tokenCount }, () => []);
  arcs.forEach((a, i) => out[a.from].push(i));
  const state = new Uint8Array(tokenCount); // 0 unseen, 1 on the stack, 2 done
  const via = new Int32Array(tokenCount).fill(-1);
  for (let root = 0; root < tokenCount; root++) {
    if (state[root]) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [t, k] = top;
      if (k >= out[t].length) {
        state[t] = 2;
        stack.pop();
        continue;
      }
      top[1]++;
      const arc = out[t][k];
      const next = arcs[arc].to;
      if (state[next] === 1) {
        // The loop: next -> ... -> t -> next.
        const loop = [arc];
        for (let u = t; u !== next; u = arcs[via[u]].from) loop.push(via[u]);
        return loop.reverse();
      }
      if (state[next] === 0) {
        state[next] = 1;
        via[next] = arc;
        stack.push([next, 0]);
      }
    }
  }
  return undefined;
}

/** The route's stages and output for `amountIn`, or undefined when no integer route comes out of the arcs. */
export interface StagedRoute {
  readonly stages: StagedSwap[][];
  readonly amountOut: bigint;
}

/**
 * Stages and exact amounts of loop-free arcs for `amountIn` (see the module note). Token 0 is tokenIn, token 1
 * tokenOut (as in the flow graph).
 */
export function stageArcs(arcs: readonly FlowArc[], tokenCount: number, amountIn: bigint): StagedRoute | undefined {
  let live = [...arcs];
  // Prune tokens that receive without passing on, or pass on without receiving, until none is left.
  for (;;) {
    const gets = new Uint8Array(tokenCount);
    const gives = new Uint8Array(tokenCount);
    gets[0] = 1;
    gives[1] = 1;
    for (const a of live) {
      gets[a.to] = 1;
      gives[a.from] = 1;
    }
    const kept = live.filter((a) => gets[a.from] && gives[a.to]);
    if (kept.length === live.length) break;
    live = kept;
  }
  if (live.length === 0) return undefined;
  // Depth: the longest chain of arcs from tokenIn (the arcs are loop-free).
  const depth = new Int32Array(tokenCount).fill(-1);
  depth[0] = 0;
  for (let round = 0; round < tokenCount; round++) {
    let changed = false;
    for (const a of live) {
      if (depth[a.from] >= 0 && depth[a.from] + 1 > depth[a.to]) {
        depth[a.to] = depth[a.from] + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  const byToken: FlowArc[][] = Array.from({ length: tokenCount }, () => []);
  for (const a of live) byToken[a.from].push(a);
  // Token order: by depth, then by the flow leaving them (most first).
  const value = (t: number) => byToken[t].reduce((s, a) => s + a.weight, 0);
  const order = [...Array(tokenCount).keys()].filter((t) => t !== 1 && byToken[t].length > 0 && depth[t] >= 0).sort((a, b) => depth[a] - depth[b] || value(b) - value(a) || a - b);
  const held = new Array<bigint>(tokenCount).fill(0n);
  held[0] = amountIn;
  const stages: StagedSwap[][] = [];
  for (const t of order) {
    const amount = held[t];
    held[t] = 0n;
    if (amount === 0n) continue;
    let legs = [...byToken[t]].sort((a, b) => b.weight - a.weight);
    let swaps: StagedSwap[] | undefined;
    // Shares by flow, each within its leg's cap (the excess shared by the others); a leg whose share is zero or
    // pays nothing leaves, its flow to the others.
    while (legs.length > 0 && !swaps) {
      const amounts = capShares(legs, amount);
      if (!amounts) return undefined;
      const outs = legs.map((a, j) => (amounts[j] > 0n ? a.leg.quote(amounts[j]) : 0n));
      const bad = legs.findIndex((_, j) => amounts[j] === 0n || outs[j] === 0n);
      if (bad >= 0) {
        legs = legs.filter((_, j) => j !== bad);
        continue;
      }
      swaps = legs.map((a, j) => ({ leg: a.leg, amountIn: amounts[j], amountOut: outs[j] }));
      legs.forEach((a, j) => (held[a.to] += outs[j]));
    }
    if (!swaps) return undefined;
    const stage = depth[t];
    while (stages.length <= stage) stages.push([]);
    stages[stage].push(...swaps);
  }
  // A stage emptied by pruning would leave a gap: close the ranks.
  const nonEmpty = stages.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return undefined;
  for (let t = 0; t < tokenCount; t++) if (t !== 1 && held[t] !== 0n) return undefined;
  return { stages: nonEmpty, amountOut: held[1] };
}

/**
 * The stages replayed as RouterV2 executes them for another input (each token's amount shared in proportion to
 * the stages' quoted inputs), priced by the legs' exact quotes; undefined when a share would pay nothing.
 */
export function restage(stages: readonly (readonly StagedSwap[])[], tokenIn: string, tokenOut: string, amountIn: bigint): StagedRoute | undefined {
  const executed = replayStages(
    stages.map((stage) => stage.map((s) => ({ tokenIn: s.leg.tokenIn, tokenOut: s.leg.tokenOut, amountIn: s.amountIn }))),
    tokenIn,
    tokenOut,
    amountIn,
    (k, shares) => {
      const outs = shares.map((share, j) => (share > 0n ? stages[k][j].leg.quote(share) : 0n));
      return outs.some((o, j) => shares[j] > 0n && o === 0n) ? undefined : outs;
    },
  );
  if (!executed) return undefined;
  return {
    stages: executed.stages.map((stage, k) => stage.amountsIn.map((amountIn, j) => ({ leg: stages[k][j].leg, amountIn, amountOut: stage.amountsOut[j] }))),
    amountOut: executed.amountOut,
  };
}

/**
 * Bits of the fractions an amount is shared by (2^-32 of it apart, ~2e-10). The float weights of the same flows carry
 * noise of about 1e-14 from the order of their sums (graphs built whole or patched block by block, on each replica):
 * on this grid it does not reach the integer shares, so identical requests answer identically wherever they are
 * solved, and the shares lose nothing that matters (an optimum's output is flat around its split).
 */
const SHARE_BITS = 32;

/** `amount` shared by the arcs' weights (floor, the last taking the rest), none above its leg's cap; undefined when the caps cannot take it. */
function capShares(arcs: readonly FlowArc[], amount: bigint): bigint[] | undefined {
  const amounts = new Array<bigint>(arcs.length).fill(0n);
  const open = arcs.map((_, j) => j);
  let rest = amount;
  while (rest > 0n) {
    if (open.length === 0) return undefined;
    const total = open.reduce((s, j) => s + arcs[j].weight, 0);
    const units = open.map((j) => BigInt(Math.floor((arcs[j].weight / total) * 2 ** SHARE_BITS)));
    let left = rest;
    open.forEach((j, i) => {
      const share = i === open.length - 1 ? left : (rest * units[i]) >> BigInt(SHARE_BITS);
      left -= share;
      amounts[j] += share;
    });
    rest = 0n;
    // Legs over their cap give the excess back and close.
    for (let i = open.length - 1; i >= 0; i--) {
      const cap = arcs[open[i]].leg.maxIn;
      if (cap !== undefined && amounts[open[i]] > cap) {
        rest += amounts[open[i]] - cap;
        amounts[open[i]] = cap;
        open.splice(i, 1);
      }
    }
  }
  return amounts;
}
