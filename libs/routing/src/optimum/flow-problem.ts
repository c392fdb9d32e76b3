/**
 * The trade's problem as the interior-point solve (`interior-flow.ts`) sees it: the legs of the flow graph that can
 * carry it, a balance row per token they touch, every amount scaled to the trade's value, and a strictly feasible
 * point to start from.
 */
import type { FlowGraph } from './flow-graph';
import type { LegShape } from '../pools/legs';

/** The flow graph's index of tokenOut (tokenIn's is 0). */
export const TOKEN_OUT = 1;

/**
 * Caps are taken this much (relative) below a leg's float cap: the float cap can exceed the exact `maxIn` by
 * rounding (a concentrated pool's ranges summed in float: up to about 1e-8), and a flow at it would not round to
 * an exact swap.
 */
const CAP_MARGIN = 1e-7;

/** The legs taken and their scaled quantities; k indexes the legs taken, e the flow graph's legs. */
export interface ScaledFlow {
  /** Tokens of the flow graph. */
  readonly n: number;
  /** The flow graph's index of each leg taken. */
  readonly legs: readonly number[];
  /** Balance rows (tokens the legs taken touch, but tokenOut; tokenIn's is 0). */
  readonly m: number;
  /** Each token's row, -1 for none. */
  readonly rowOf: Int32Array;
  /** Per leg taken: its token in's row and its token out's (-1 for tokenOut). */
  readonly ru: Int32Array;
  readonly rv: Int32Array;
  /** x = z * toUnits; f^ = f * outScale; f^' = f' * slopeScale; f^'' = f'' * curveScale. */
  readonly toUnits: Float64Array;
  readonly outScale: Float64Array;
  readonly slopeScale: Float64Array;
  readonly curveScale: Float64Array;
  /** The scaled cap (Infinity for none). */
  readonly cap: Float64Array;
}

/** Tokens reached through the legs not forbidden, walking them forward (`from` to `to`) or back from `start`. */
function reachable(graph: FlowGraph, start: number, forward: boolean, forbidden: Uint8Array | undefined): Uint8Array {
  const seen = new Uint8Array(graph.tokens.length);
  seen[start] = 1;
  const [near, far] = forward ? [graph.from, graph.to] : [graph.to, graph.from];
  for (let changed = true; changed; ) {
    changed = false;
    for (let e = 0; e < graph.legs.length; e++) {
      if ((forbidden && forbidden[e]) || !seen[near[e]] || seen[far[e]]) continue;
      seen[far[e]] = 1;
      changed = true;
    }
  }
  return seen;
}

/**
 * The legs not forbidden whose token in can receive anything (reachable from tokenIn through such legs) and whose
 * token out can pass it on to tokenOut (what reaches a dead end never pays).
 */
function legsTaken(graph: FlowGraph, forbidden: Uint8Array | undefined): number[] {
  const reached = reachable(graph, 0, true, forbidden);
  const leads = reachable(graph, TOKEN_OUT, false, forbidden);
  const legs: number[] = [];
  for (let e = 0; e < graph.legs.length; e++) if (!(forbidden && forbidden[e]) && reached[graph.from[e]] && leads[graph.to[e]]) legs.push(e);
  return legs;
}

/**
 * The problem of `amountIn` over the flow graph, amounts scaled by `scale` (a price estimate per token, tokenOut base
 * units per base unit, all positive): 1 is the whole trade. Undefined when no leg can carry it.
 */
export function scaledFlow(graph: FlowGraph, amountIn: number, scale: Float64Array, forbidden: Uint8Array | undefined): ScaledFlow | undefined {
  const n = graph.tokens.length;
  const legs = legsTaken(graph, forbidden);
  const E = legs.length;
  if (E === 0 || !(amountIn > 0)) return undefined;
  // A balance per token the legs taken touch, but tokenOut (tokenIn's first): the Newton systems have a row per
  // token that trades, not per token of the graph.
  const rowOf = new Int32Array(n).fill(-1);
  let m = 0;
  rowOf[0] = m++;
  for (const e of legs) {
    const u = graph.from[e];
    const v = graph.to[e];
    if (rowOf[u] < 0) rowOf[u] = m++;
    if (v !== TOKEN_OUT && rowOf[v] < 0) rowOf[v] = m++;
  }
  const value = scale[0] * amountIn;
  const p = { n, legs, m, rowOf, ru: new Int32Array(E), rv: new Int32Array(E), toUnits: new Float64Array(E), outScale: new Float64Array(E), slopeScale: new Float64Array(E), curveScale: new Float64Array(E), cap: new Float64Array(E) };
  for (let k = 0; k < E; k++) {
    const e = legs[k];
    const u = graph.from[e];
    const v = graph.to[e];
    p.ru[k] = rowOf[u];
    p.rv[k] = v === TOKEN_OUT ? -1 : rowOf[v];
    p.toUnits[k] = value / scale[u];
    p.outScale[k] = scale[v] / value;
    p.slopeScale[k] = scale[v] / scale[u];
    p.curveScale[k] = (scale[v] * value) / (scale[u] * scale[u]);
    const top = graph.legs[e].maxInApprox;
    p.cap[k] = Number.isFinite(top) ? (top * (1 - CAP_MARGIN)) / p.toUnits[k] : Infinity;
  }
  return p;
}

/** Tokens in breadth-first order from tokenIn over the legs taken, and the legs taken out of each token. */
function breadthFirst(graph: FlowGraph, p: ScaledFlow): { order: number[]; outOf: number[][] } {
  const depth = new Int32Array(p.n).fill(-1);
  depth[0] = 0;
  const order = [0];
  const outOf: number[][] = Array.from({ length: p.n }, () => []);
  for (let k = 0; k < p.legs.length; k++) outOf[graph.from[p.legs[k]]].push(k);
  for (let i = 0; i < order.length; i++) {
    for (const k of outOf[order[i]]) {
      const v = graph.to[p.legs[k]];
      if (depth[v] < 0) {
        depth[v] = depth[order[i]] + 1;
        order.push(v);
      }
    }
  }
  return { order, outOf };
}

/**
 * A strictly feasible starting point (scaled amounts per leg taken): in breadth-first order from tokenIn, each token
 * sends half of what it receives forward (split evenly) and a quarter back or sideways (split evenly), no leg more
 * than half its cap.
 */
export function startingPoint(graph: FlowGraph, p: ScaledFlow): Float64Array {
  const z = new Float64Array(p.legs.length);
  const { order, outOf } = breadthFirst(graph, p);
  const received = new Float64Array(p.n);
  received[0] = 1;
  const shape: LegShape = { y: 0, slope: 0, curvature: 0 };
  const done = new Uint8Array(p.n);
  for (const t of order) {
    done[t] = 1;
    if (t === TOKEN_OUT) continue;
    const out = outOf[t];
    const forward = out.filter((k) => !done[graph.to[p.legs[k]]]);
    const back = out.length - forward.length;
    for (const k of out) {
      const v = graph.to[p.legs[k]];
      let amount = done[v] ? (0.25 * received[t]) / back : (0.5 * received[t]) / forward.length;
      if (amount >= p.cap[k]) amount = p.cap[k] / 2;
      z[k] = amount;
      graph.legs[p.legs[k]].shape(amount * p.toUnits[k], shape);
      received[v] += shape.y * p.outScale[k];
    }
  }
  return z;
}
