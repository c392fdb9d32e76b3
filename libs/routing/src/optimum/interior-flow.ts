/**
 * The convex optimum of an exact-input trade over a flow graph (`flow-graph.ts`), in float64.
 *
 * The problem: each leg e (a pool in one direction, from token u to token v) takes x_e in [0, cap_e] and pays
 * f_e(x_e), concave; every token but tokenOut keeps g_t(x) = b_t + sum_{e into t} f_e(x_e) - sum_{e out of t} x_e
 * >= 0 (b = the trade's input X at tokenIn, 0 elsewhere: a token pays out at most what it receives); maximise
 * what reaches tokenOut. Its dual is the one of Diamandis et al. 2023 ("An efficient algorithm for optimal
 * routing through constant function market makers"): a price per token, under which the problem separates into
 * each pool's own arbitrage. Pools quoted at a nearly constant price up to a hard cap (core pools at the oracle
 * price, stable pools at peg, launchpad curves at their allotment) make that dual nearly piecewise linear, badly
 * conditioned for a descent on the prices alone; so the optimum is found by a primal interior-point method, whose
 * Newton systems are solved in the same token-price space:
 *
 * - amounts are scaled to the trade's value (each token priced at the estimate given: 1 = the whole trade), so
 *   every figure is about 1 whatever the tokens' decimals;
 * - barrier problem: minimise -sum_{e into tokenOut} f_e - mu (sum_t log g_t + sum_e log x_e + log(cap_e - x_e)),
 *   by Newton steps with a backtracking line search that keeps every amount and balance strictly positive; mu is
 *   divided by 8 whenever Newton's decrement is small, down to a duality gap of about 1e-9 of the trade;
 * - the Hessian is diagonal over the legs plus, per token, the rank-one term of its balance: with the Woodbury
 *   identity each Newton step solves one symmetric system of one row per token (a weighted graph Laplacian,
 *   Cholesky), not one per leg;
 * - the token prices (tokenOut per base unit of the token) are the balances' multipliers, mu / g_t;
 * - iterates that come back to the same points every few steps (a leg whose curvature differs too much between
 *   its ranges for Newton's model: the steps swing across them) end the solve on the point of the cycle the step
 *   limit would have ended on, without the steps left.
 *
 * It starts from a strictly feasible point: in breadth-first order from tokenIn, each token sends half of what it
 * receives forward (split evenly) and a quarter back or sideways (split evenly).
 */
import type { FlowGraph } from './flow-graph';
import type { LegShape } from '../pools/legs';

export interface FlowSolution {
  /** Price per token of the flow graph (tokenOut: 1), tokenOut base units per base unit; 0 for tokens no leg taken touches. */
  readonly prices: Float64Array;
  /** Per leg, its input and float output. */
  readonly inputs: Float64Array;
  readonly outputs: Float64Array;
  /** What reaches tokenOut (float). */
  readonly amountOut: number;
  /** The part of the input left at tokenIn (fraction): above ~1e-6 the pools cannot carry the whole trade. */
  readonly unspent: number;
  readonly iterations: number;
}

export interface FlowOptions {
  /** Legs left out (1 at a leg's index): the arcs a loop-free flow may not take. */
  readonly forbidden?: Uint8Array;
  /** Newton steps at most. Default 200. */
  readonly maxIterations?: number;
  /** Duality gap to reach, as a fraction of the trade. Default 1e-9. */
  readonly gap?: number;
  /**
   * A step at which a solve that has not ended yet asks `stopIf` whether the point reached will do (true ends the
   * solve there, as the step limit would).
   */
  readonly checkAt?: number;
  readonly stopIf?: (solution: FlowSolution) => boolean;
  /** Called after each Newton step (for tests and tuning). */
  readonly onStep?: (step: { iteration: number; mu: number; objective: number; decrement: number; stepSize: number }) => void;
}

const TOKEN_OUT = 1;
/** Cycles of the iterates found (see the loop): up to MAX_CYCLE steps long, repeating within CYCLE_TOLERANCE (relative) for CYCLE_REPEATS steps. */
const MAX_CYCLE = 8;
const CYCLE_TOLERANCE = 1e-9;
const CYCLE_REPEATS = 6;
/**
 * Caps are taken this much (relative) below a leg's float cap: the float cap can exceed the exact `maxIn` by
 * rounding (a concentrated pool's ranges summed in float: up to about 1e-8), and a flow at it would not round to
 * an exact swap.
 */
const CAP_MARGIN = 1e-7;

/**
 * The optimum of `amountIn` (base units of tokenIn) over the flow graph, amounts scaled by `scale` (a price
 * estimate per token, tokenOut base units per base unit, all positive). Undefined when the graph has no leg.
 */
export function solveFlow(graph: FlowGraph, amountIn: number, scale: Float64Array, options: FlowOptions = {}): FlowSolution | undefined {
  const n = graph.tokens.length;
  const forbidden = options.forbidden;
  // The legs taken, their tokens' rows, their scale factors and caps (scaled).
  // Legs not forbidden whose token in can receive anything (reachable from tokenIn through such legs).
  const reached = new Uint8Array(n);
  reached[0] = 1;
  for (let changed = true; changed; ) {
    changed = false;
    for (let e = 0; e < graph.legs.length; e++) {
      if ((forbidden && forbidden[e]) || !reached[graph.from[e]] || reached[graph.to[e]]) continue;
      reached[graph.to[e]] = 1;
      changed = true;
    }
  }
  // ... and whose token out can pass it on to tokenOut (what reaches a dead end never pays).
  const leads = new Uint8Array(n);
  leads[TOKEN_OUT] = 1;
  for (let changed = true; changed; ) {
    changed = false;
    for (let e = 0; e < graph.legs.length; e++) {
      if ((forbidden && forbidden[e]) || !leads[graph.to[e]] || leads[graph.from[e]]) continue;
      leads[graph.from[e]] = 1;
      changed = true;
    }
  }
  const legs: number[] = [];
  for (let e = 0; e < graph.legs.length; e++) if (!(forbidden && forbidden[e]) && reached[graph.from[e]] && leads[graph.to[e]]) legs.push(e);
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
  const row = (t: number): number => rowOf[t];
  const value = scale[0] * amountIn;
  const ru = new Int32Array(E);
  const rv = new Int32Array(E); // -1 for tokenOut
  const toUnits = new Float64Array(E); // x = z * toUnits
  const outScale = new Float64Array(E); // f^ = f * outScale
  const slopeScale = new Float64Array(E); // f^' = f' * slopeScale
  const curveScale = new Float64Array(E); // f^'' = f'' * curveScale
  const cap = new Float64Array(E);
  for (let k = 0; k < E; k++) {
    const e = legs[k];
    const u = graph.from[e];
    const v = graph.to[e];
    ru[k] = row(u);
    rv[k] = v === TOKEN_OUT ? -1 : row(v);
    toUnits[k] = value / scale[u];
    outScale[k] = scale[v] / value;
    slopeScale[k] = scale[v] / scale[u];
    curveScale[k] = (scale[v] * value) / (scale[u] * scale[u]);
    const top = graph.legs[e].maxInApprox;
    cap[k] = Number.isFinite(top) ? (top * (1 - CAP_MARGIN)) / toUnits[k] : Infinity;
  }

  // The starting point: breadth-first from tokenIn.
  const z = new Float64Array(E);
  {
    const depth = new Int32Array(n).fill(-1);
    depth[0] = 0;
    const order = [0];
    const outOf: number[][] = Array.from({ length: n }, () => []);
    for (let k = 0; k < E; k++) outOf[graph.from[legs[k]]].push(k);
    for (let i = 0; i < order.length; i++) {
      for (const k of outOf[order[i]]) {
        const v = graph.to[legs[k]];
        if (depth[v] < 0) {
          depth[v] = depth[order[i]] + 1;
          order.push(v);
        }
      }
    }
    const received = new Float64Array(n);
    received[0] = 1;
    const shape: LegShape = { y: 0, slope: 0, curvature: 0 };
    const done = new Uint8Array(n);
    for (const t of order) {
      done[t] = 1;
      if (t === TOKEN_OUT) continue;
      const out = outOf[t];
      const forward = out.filter((k) => !done[graph.to[legs[k]]]);
      const back = out.length - forward.length;
      for (const k of out) {
        const v = graph.to[legs[k]];
        let amount = done[v] ? (0.25 * received[t]) / back : (0.5 * received[t]) / forward.length;
        if (amount >= cap[k]) amount = cap[k] / 2;
        z[k] = amount;
        graph.legs[legs[k]].shape(amount * toUnits[k], shape);
        received[v] += shape.y * outScale[k];
      }
    }
  }

  // Primal-dual interior point (Mehrotra's predictor-corrector). Unknowns: the amounts z, the balances' slacks s
  // (g(z) = s), their multipliers lam (the token prices, scaled), and the multipliers of z >= 0 (zeta) and of
  // z <= cap (omega). One Newton system per step, reduced to a row per token:
  //   (A Q^-1 A^T + diag(s / lam)) dLam = r,  Q_e = -(lam_v or 1) f''_e + zeta_e / z_e + omega_e / (cap_e - z_e),
  // A's column for leg e: -1 at its token in, f'_e at its token out (none for tokenOut).
  const F = new Float64Array(E);
  const G = new Float64Array(E);
  const C = new Float64Array(E);
  const g = new Float64Array(m);
  const shape: LegShape = { y: 0, slope: 0, curvature: 0 };
  const evaluate = (at: Float64Array): void => {
    g.fill(0);
    g[0] = 1;
    for (let k = 0; k < E; k++) {
      graph.legs[legs[k]].shape(at[k] * toUnits[k], shape);
      F[k] = shape.y * outScale[k];
      G[k] = shape.slope * slopeScale[k];
      C[k] = shape.curvature * curveScale[k];
      g[ru[k]] -= at[k];
      if (rv[k] >= 0) g[rv[k]] += F[k];
    }
  };
  evaluate(z);
  const slack = new Float64Array(m);
  const lam = new Float64Array(m).fill(1);
  const zeta = new Float64Array(E);
  const omega = new Float64Array(E);
  const capped = new Uint8Array(E);
  for (let r = 0; r < m; r++) slack[r] = Math.max(g[r], 1e-3);
  for (let k = 0; k < E; k++) {
    capped[k] = cap[k] < Infinity ? 1 : 0;
    zeta[k] = 0.1 / z[k];
    omega[k] = capped[k] ? 0.1 / (cap[k] - z[k]) : 0;
  }
  const N = m + E + capped.reduce((a, b) => a + b, 0);
  const gapTarget = options.gap ?? 1e-9;
  const maxIterations = options.maxIterations ?? 200;

  const rd = new Float64Array(E);
  const rp = new Float64Array(m);
  const Q = new Float64Array(E);
  const matrix = new Float64Array(m * m);
  const rhs = new Float64Array(m);
  const dz = new Float64Array(E);
  const dzeta = new Float64Array(E);
  const domega = new Float64Array(E);
  const dlam = new Float64Array(m);
  const dslack = new Float64Array(m);
  // Complementarity targets of the corrector: s lam -> targetS, z zeta -> targetZ, (cap - z) omega -> targetC (the
  // predictor's are 0).
  const targetS = new Float64Array(m);
  const targetZ = new Float64Array(E);
  const targetC = new Float64Array(E);
  // The largest steps (primal, dual) up to 1 that keep the positive unknowns positive, times the fraction asked
  // for, as `direction` found them.
  let primalStep = 1;
  let dualStep = 1;
  /**
   * The Newton direction: for the predictor (`corrector` false) complementarity targets 0, else targetS, targetZ
   * and targetC, set here from `target` and the predictor's direction. Fills dz, dlam, dslack, dzeta, domega, and
   * primalStep / dualStep for `fraction`; the matrix is factored for the predictor and kept for its corrector.
   */
  const direction = (corrector: boolean, fraction: number, target: number): boolean => {
    // The predictor builds the matrix in the same pass over the legs as the right-hand side; the corrector sets its
    // complementarity targets (the predictor's second-order terms taken off `target`) in it.
    if (!corrector) {
      matrix.fill(0);
      for (let r = 0; r < m; r++) matrix[r * m + r] = slack[r] / lam[r];
    }
    // rho_e = -rd_e - rz_e / z_e + rc_e / (cap_e - z_e); rhs = -rp + A Q^-1 rho + rs / lam.
    for (let r = 0; r < m; r++) {
      if (corrector) targetS[r] = target - dslack[r] * dlam[r];
      rhs[r] = -rp[r] + ((corrector ? targetS[r] : 0) - slack[r] * lam[r]) / lam[r];
    }
    for (let k = 0; k < E; k++) {
      const a = ru[k];
      const b = rv[k];
      if (!corrector) {
        const inv = 1 / Q[k];
        matrix[a * m + a] += inv;
        if (b >= 0) {
          const gk = G[k];
          matrix[b * m + b] += gk * gk * inv;
          matrix[a * m + b] -= gk * inv;
          matrix[b * m + a] -= gk * inv;
        }
      } else {
        targetZ[k] = target - dz[k] * dzeta[k];
        targetC[k] = target + dz[k] * domega[k];
      }
      const zk = z[k];
      let rho = -rd[k] - ((corrector ? targetZ[k] : 0) - zk * zeta[k]) / zk;
      if (capped[k]) rho += ((corrector ? targetC[k] : 0) - (cap[k] - zk) * omega[k]) / (cap[k] - zk);
      dz[k] = rho; // for now: rho
      const q = rho / Q[k];
      rhs[a] -= q;
      if (b >= 0) rhs[b] += G[k] * q;
    }
    if (!corrector && !cholesky(matrix, m)) return false;
    solveCholesky(matrix, m, rhs);
    dlam.set(rhs);
    let p = 1;
    let d = 1;
    for (let k = 0; k < E; k++) {
      const zk = z[k];
      const b = rv[k];
      const aTd = -dlam[ru[k]] + (b >= 0 ? G[k] * dlam[b] : 0);
      const dzk = (aTd - dz[k]) / Q[k];
      dz[k] = dzk;
      const dzetak = ((corrector ? targetZ[k] : 0) - zk * zeta[k] - zeta[k] * dzk) / zk;
      dzeta[k] = dzetak;
      if (dzk < 0) p = Math.min(p, (-fraction * zk) / dzk);
      if (dzetak < 0) d = Math.min(d, (-fraction * zeta[k]) / dzetak);
      if (capped[k]) {
        const domegak = ((corrector ? targetC[k] : 0) - (cap[k] - zk) * omega[k] + omega[k] * dzk) / (cap[k] - zk);
        domega[k] = domegak;
        if (dzk > 0) p = Math.min(p, (fraction * (cap[k] - zk)) / dzk);
        if (domegak < 0) d = Math.min(d, (-fraction * omega[k]) / domegak);
      } else {
        domega[k] = 0;
      }
    }
    for (let r = 0; r < m; r++) {
      const ds = ((corrector ? targetS[r] : 0) - slack[r] * lam[r] - slack[r] * dlam[r]) / lam[r];
      dslack[r] = ds;
      if (ds < 0) p = Math.min(p, (-fraction * slack[r]) / ds);
      if (dlam[r] < 0) d = Math.min(d, (-fraction * lam[r]) / dlam[r]);
    }
    primalStep = p;
    dualStep = d;
    return true;
  };

  // Per step, one pass over the legs moves them, evaluates them at their new amounts and takes their residuals
  // for the next step: dual rd_e = (lam_v or 1) f'_e - lam_u + zeta_e - omega_e, and Q_e; `worst` is the largest
  // residual, `complementarity` the sum of s lam, z zeta and (cap - z) omega (in that order).
  let worst = 0;
  let complementarity = 0;
  let output = 0;
  /** Moves every unknown by the steps found and evaluates the new point (its residuals included; dz and the rest are 0 before the first step). */
  const move = (pStep: number, dStep: number): void => {
    worst = 0;
    complementarity = 0;
    output = 0;
    for (let r = 0; r < m; r++) {
      slack[r] += pStep * dslack[r];
      lam[r] += dStep * dlam[r];
      complementarity += slack[r] * lam[r];
    }
    g.fill(0);
    g[0] = 1;
    for (let k = 0; k < E; k++) {
      const zk = z[k] + pStep * dz[k];
      z[k] = zk;
      graph.legs[legs[k]].shape(zk * toUnits[k], shape);
      const fk = shape.y * outScale[k];
      F[k] = fk;
      const gk = shape.slope * slopeScale[k];
      G[k] = gk;
      const ck = shape.curvature * curveScale[k];
      C[k] = ck;
      g[ru[k]] -= zk;
      if (rv[k] >= 0) g[rv[k]] += fk;
      const zetak = zeta[k] + dStep * dzeta[k];
      zeta[k] = zetak;
      const omegak = omega[k] + dStep * domega[k];
      omega[k] = omegak;
      const price = rv[k] < 0 ? 1 : lam[rv[k]];
      const rdk = price * gk - lam[ru[k]] + zetak - omegak;
      rd[k] = rdk;
      Q[k] = -price * ck + zetak / zk + (capped[k] ? omegak / (cap[k] - zk) : 0);
      worst = Math.max(worst, Math.abs(rdk));
      complementarity += zk * zetak + (capped[k] ? (cap[k] - zk) * omegak : 0);
      if (rv[k] < 0) output += fk;
    }
  };

  let iterations = 0;
  /** The current point as a solution, in the graph's units. */
  const solutionAt = (): FlowSolution => {
    const prices = new Float64Array(n);
    prices[TOKEN_OUT] = 1;
    // Tokens without a balance (no leg taken touches them) have no price: 0.
    for (let t = 0; t < n; t++) if (t !== TOKEN_OUT && rowOf[t] >= 0) prices[t] = lam[rowOf[t]] * scale[t];
    const inputs = new Float64Array(graph.legs.length);
    const outputs = new Float64Array(graph.legs.length);
    let amountOut = 0;
    for (let k = 0; k < E; k++) {
      inputs[legs[k]] = z[k] * toUnits[k];
      outputs[legs[k]] = F[k] / outScale[k];
      if (rv[k] < 0) amountOut += outputs[legs[k]];
    }
    return { prices, inputs, outputs, amountOut, unspent: Math.max(0, g[0]), iterations };
  };
  let mu: number;
  // Each step's largest residual and output (what reaches tokenOut), to find cycles.
  const worstAt = new Float64Array(maxIterations);
  const outputAt = new Float64Array(maxIterations);
  const good = { z: Float64Array.from(z), lam: Float64Array.from(lam) };
  move(0, 0); // the residuals of the starting point
  for (; iterations < maxIterations; iterations++) {
    // Primal residuals: rp = g(z) - s.
    for (let r = 0; r < m; r++) {
      rp[r] = g[r] - slack[r];
      worst = Math.max(worst, Math.abs(rp[r]));
    }
    mu = complementarity / N;
    if (!Number.isFinite(mu) || !Number.isFinite(worst)) {
      // Lost to rounding: back to the last point that was whole.
      z.set(good.z);
      lam.set(good.lam);
      evaluate(z);
      break;
    }
    good.z.set(z);
    good.lam.set(lam);
    if (mu * N <= gapTarget && worst <= Math.max(gapTarget, 1e-8)) break;
    // A cycle: the iterates come back to the same points every few steps (legs whose curvature differs too much
    // between the points for Newton's model to settle), the residual and the output repeating. Nothing changes
    // after that but the shrinking complementarity: the point of the cycle the step limit would end on is the
    // answer now.
    worstAt[iterations] = worst;
    outputAt[iterations] = output;
    const period = cyclePeriod(worstAt, outputAt, iterations);
    if (period > 0 && (maxIterations - iterations) % period === 0) break;
    if (iterations === options.checkAt && options.stopIf) {
      const here = solutionAt();
      if (options.stopIf(here)) return here;
    }
    // Predictor: no centring.
    if (!direction(false, 1, 0)) break;
    const pa = primalStep;
    const da = dualStep;
    let muAffine = 0;
    for (let r = 0; r < m; r++) muAffine += (slack[r] + pa * dslack[r]) * (lam[r] + da * dlam[r]);
    for (let k = 0; k < E; k++) {
      muAffine += (z[k] + pa * dz[k]) * (zeta[k] + da * dzeta[k]);
      if (capped[k]) muAffine += (cap[k] - z[k] - pa * dz[k]) * (omega[k] + da * domega[k]);
    }
    muAffine /= N;
    const sigma = Math.min(1, (muAffine / mu) ** 3);
    // Corrector: centring at sigma mu, less the predictor's second-order terms.
    direction(true, 0.995, sigma * mu);
    const decrement = worst;
    move(primalStep, dualStep);
    options.onStep?.({ iteration: iterations, mu, objective: output, decrement, stepSize: Math.min(primalStep, dualStep) });
  }
  return solutionAt();
}

/**
 * The period (2 to MAX_CYCLE) with which the residuals and outputs up to step `at` repeat (each within
 * CYCLE_TOLERANCE of the one a period before, over the last CYCLE_REPEATS steps and at least two periods); 0 when
 * they do not.
 */
export function cyclePeriod(worstAt: Float64Array, outputAt: Float64Array, at: number): number {
  const same = (a: number, b: number): boolean => Math.abs(a - b) <= Math.abs(a) * CYCLE_TOLERANCE;
  for (let period = 2; period <= MAX_CYCLE; period++) {
    const span = Math.max(CYCLE_REPEATS, 2 * period);
    if (at < span + period) return 0;
    let repeats = true;
    for (let j = at; j > at - span && repeats; j--) repeats = same(worstAt[j], worstAt[j - period]) && same(outputAt[j], outputAt[j - period]);
    if (repeats) return period;
  }
  return 0;
}

/** In-place Cholesky factor (lower) of a symmetric m x m matrix; false when it is not positive definite. */
function cholesky(a: Float64Array, m: number): boolean {
  for (let j = 0; j < m; j++) {
    let d = a[j * m + j];
    for (let k = 0; k < j; k++) d -= a[j * m + k] * a[j * m + k];
    if (!(d > 0)) return false;
    const l = Math.sqrt(d);
    a[j * m + j] = l;
    for (let i = j + 1; i < m; i++) {
      let s = a[i * m + j];
      for (let k = 0; k < j; k++) s -= a[i * m + k] * a[j * m + k];
      a[i * m + j] = s / l;
    }
  }
  return true;
}

/** Solves L L^T x = b in place (b becomes x) with the factor from `cholesky`. */
function solveCholesky(l: Float64Array, m: number, b: Float64Array): void {
  for (let i = 0; i < m; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * m + k] * b[k];
    b[i] = s / l[i * m + i];
  }
  for (let i = m - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < m; k++) s -= l[k * m + i] * b[k];
    b[i] = s / l[i * m + i];
  }
}
