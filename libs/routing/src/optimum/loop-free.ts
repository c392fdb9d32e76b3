/**
 * The flows' optimum without loops: a loop in the flows is broken by solving again without the token pair of the
 * loop that carries the least value, until the flows are loop-free.
 */
import { FlowGraph } from './flow-graph';
import { type FlowArc, flowArcs, flowLoop } from './flow-route';
import { type FlowSolution, solveFlow } from './interior-flow';
import { arcsPay } from './orient';
import { pairKey } from './pairs';
import { netFlowOrder } from './token-order';

/** Loops broken at most before giving up on the optimum (the one-path route stands). */
const MAX_LOOP_BREAKS = 12;


/** Loops in one solution beyond which they are broken by the order of the flow's trade (`netFlowOrder`). */
const MANY_LOOPS = 4;
/** See `optimumRoute`. */
export const LOOP_DOMINANCE = 1.5;
/** Newton steps after which flows that hold a loop end their solve (see `loopFreeOptimum`). */
const LOOP_CHECK_STEPS = 30;

/** Loop-free flows, and what the first flows (with their loops) paid. */
export interface LoopFree {
  readonly solution: FlowSolution;
  readonly arcs: FlowArc[];
  readonly relaxed: number;
}

/**
 * The loop-free optimum for `amountIn`. The flows are solved; when they hold loops (the free arbitrage loops of
 * the pools, pumped for profit), every leg going against the order of the flow's trade (`netFlowOrder`) is left
 * out and the flows solved again; loops left after that (through tokens without flow) lose, loop by loop, their
 * token pair carrying the least value. Forbidden pairs (`pairKey` of token indices) accumulate in `forbidden`.
 * Undefined when loops remain after MAX_LOOP_BREAKS solves.
 */
export function loopFreeOptimum(graph: FlowGraph, amountIn: number, scale: Float64Array, forbidden: Set<number> = new Set()): LoopFree | undefined {
  let relaxed = 0;
  for (let attempt = 0; attempt <= MAX_LOOP_BREAKS; attempt++) {
    const mask = new Uint8Array(graph.legs.length);
    if (forbidden.size) for (let e = 0; e < graph.legs.length; e++) if (forbidden.has(pairKey(graph.from[e], graph.to[e]))) mask[e] = 1;
    // The optimum pumps a loop of the legs whose zero-size rates multiply to more than 1 (a little flow around it
    // pays), so flows whose arcs close such a loop after LOOP_CHECK_STEPS steps would end holding a loop and be solved
    // again whatever they converge to: the solve stops there, and the loops' cuts and the relaxed output are taken
    // from that point (on the 10,000-pool bench graph the first solve of every query, 43% of the Newton steps).
    const solution = solveFlow(graph, amountIn, scale, {
      forbidden: mask,
      checkAt: LOOP_CHECK_STEPS,
      stopIf: (s) => arcsPay(flowArcs(graph, s.inputs, s.outputs, s.prices, amountIn), graph.tokens.length),
    });
    if (!solution) return undefined;
    const arcs = flowArcs(graph, solution.inputs, solution.outputs, solution.prices, amountIn);
    if (attempt === 0) relaxed = solution.amountOut;
    if (!flowLoop(arcs, graph.tokens.length)) return { solution, arcs, relaxed };
    // Every loop of the arcs loses its token pair carrying the least value (all its legs together), loop after
    // loop in the arcs left; when the flows hold many loops (pools priced apart everywhere), the first time the
    // legs against the order of the flow's trade are forbidden instead.
    const pairValue = new Map<number, number>();
    for (const a of arcs) {
      const pair = pairKey(a.from, a.to);
      pairValue.set(pair, (pairValue.get(pair) ?? 0) + solution.prices[a.from] * a.weight);
    }
    const cuts: number[] = [];
    let left = arcs;
    for (let loop = flowLoop(left, graph.tokens.length); loop; loop = flowLoop(left, graph.tokens.length)) {
      let weakest = -1;
      for (const k of loop) {
        const pair = pairKey(left[k].from, left[k].to);
        if (weakest < 0 || pairValue.get(pair)! < pairValue.get(weakest)!) weakest = pair;
      }
      cuts.push(weakest);
      if (attempt === 0 && cuts.length > MANY_LOOPS) break;
      left = left.filter((a) => pairKey(a.from, a.to) !== weakest);
    }
    if (attempt === 0 && cuts.length > MANY_LOOPS) {
      const order = netFlowOrder(arcs, solution.prices, graph.tokens.length);
      for (let e = 0; e < graph.legs.length; e++) {
        const [u, v] = [graph.from[e], graph.to[e]];
        if (order[u] >= 0 && order[v] >= 0 && order[u] > order[v]) forbidden.add(pairKey(u, v));
      }
    } else for (const cut of cuts) forbidden.add(cut);
  }
  return undefined;
}
