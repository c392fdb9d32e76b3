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
import { scaledFlow, startingPoint, TOKEN_OUT as TOKEN_OUT_INDEX, type ScaledFlow } from './flow-problem';
import type { LegShape } from '../pools/legs';
import { cholesky, solveCholesky } from '../math/cholesky';

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

/** Cycles of the iterates found (see `iterate`): up to MAX_CYCLE steps long, repeating within CYCLE_TOLERANCE (relative) for CYCLE_REPEATS steps. */
const MAX_CYCLE = 8;
const CYCLE_TOLERANCE = 1e-9;
const CYCLE_REPEATS = 6;
/** The default duality gap to reach (fraction of the trade) and Newton steps at most. */
const DEFAULT_GAP = 1e-9;
const DEFAULT_MAX_ITERATIONS = 200;
/** The corrector's step: this fraction of the largest that keeps every positive unknown positive. */
const STEP_FRACTION = 0.995;

/**
 * The optimum of `amountIn` (base units of tokenIn) over the flow graph, amounts scaled by `scale` (a price
 * estimate per token, tokenOut base units per base unit, all positive). Undefined when the graph has no leg.
 */
export function solveFlow(graph: FlowGraph, amountIn: number, scale: Float64Array, options: FlowOptions = {}): FlowSolution | undefined {
  const problem = scaledFlow(graph, amountIn, scale, options.forbidden);
  if (!problem) return undefined;
  return iterate(new InteriorPoint(graph, problem, scale, startingPoint(graph, problem)), options);
}

/**
 * Mehrotra's predictor-corrector steps from the starting point until the duality gap and the residuals are within
 * the target, the iterates cycle, `stopIf` accepts the point, or the step limit.
 */
function iterate(ip: InteriorPoint, options: FlowOptions): FlowSolution {
  const gapTarget = options.gap ?? DEFAULT_GAP;
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  // Each step's largest residual and output (what reaches tokenOut), to find cycles.
  const worstAt = new Float64Array(maxIterations);
  const outputAt = new Float64Array(maxIterations);
  ip.move(0, 0); // the residuals of the starting point
  for (; ip.iterations < maxIterations; ip.iterations++) {
    const mu = ip.primalResiduals();
    if (!Number.isFinite(mu) || !Number.isFinite(ip.worst)) {
      ip.backToGood();
      break;
    }
    ip.keepGood();
    if (mu * ip.N <= gapTarget && ip.worst <= Math.max(gapTarget, 1e-8)) break;
    // A cycle: the iterates come back to the same points every few steps (legs whose curvature differs too much
    // between the points for Newton's model to settle), the residual and the output repeating. Nothing changes
    // after that but the shrinking complementarity: the point of the cycle the step limit would end on is the
    // answer now.
    worstAt[ip.iterations] = ip.worst;
    outputAt[ip.iterations] = ip.output;
    const period = cyclePeriod(worstAt, outputAt, ip.iterations);
    if (period > 0 && (maxIterations - ip.iterations) % period === 0) break;
    if (ip.iterations === options.checkAt && options.stopIf) {
      const here = ip.solution();
      if (options.stopIf(here)) return here;
    }
    // Predictor: no centring.
    if (!ip.direction(false, 1, 0)) break;
    const sigma = Math.min(1, (ip.affineMu() / mu) ** 3);
    // Corrector: centring at sigma mu, less the predictor's second-order terms.
    ip.direction(true, STEP_FRACTION, sigma * mu);
    const decrement = ip.worst;
    ip.move(ip.primalStep, ip.dualStep);
    options.onStep?.({ iteration: ip.iterations, mu, objective: ip.output, decrement, stepSize: Math.min(ip.primalStep, ip.dualStep) });
  }
  return ip.solution();
}

/**
 * The state of the primal-dual interior-point method (Mehrotra's predictor-corrector). Unknowns: the amounts z, the
 * balances' slacks s (g(z) = s), their multipliers lam (the token prices, scaled), and the multipliers of z >= 0
 * (zeta) and of z <= cap (omega). One Newton system per step, reduced to a row per token:
 *   (A Q^-1 A^T + diag(s / lam)) dLam = r,  Q_e = -(lam_v or 1) f''_e + zeta_e / z_e + omega_e / (cap_e - z_e),
 * A's column for leg e: -1 at its token in, f'_e at its token out (none for tokenOut).
 */
class InteriorPoint {
  private readonly E: number;
  private readonly m: number;
  /** Per leg taken at the current point: f, f' and f'' (scaled). */
  private readonly F: Float64Array;
  private readonly G: Float64Array;
  private readonly C: Float64Array;
  /** Per row: the balance g(z). */
  private readonly g: Float64Array;
  private readonly slack: Float64Array;
  private readonly lam: Float64Array;
  private readonly zeta: Float64Array;
  private readonly omega: Float64Array;
  private readonly capped: Uint8Array;
  /** Unknowns with a complementarity (the divisor of mu). */
  readonly N: number;
  /** Residuals: dual per leg, primal per row; Q per leg. */
  private readonly rd: Float64Array;
  private readonly rp: Float64Array;
  private readonly Q: Float64Array;
  private readonly matrix: Float64Array;
  private readonly rhs: Float64Array;
  /** The Newton direction. */
  private readonly dz: Float64Array;
  private readonly dzeta: Float64Array;
  private readonly domega: Float64Array;
  private readonly dlam: Float64Array;
  private readonly dslack: Float64Array;
  /**
   * Complementarity targets of the corrector: s lam -> targetS, z zeta -> targetZ, (cap - z) omega -> targetC (the
   * predictor's are 0).
   */
  private readonly targetS: Float64Array;
  private readonly targetZ: Float64Array;
  private readonly targetC: Float64Array;
  private readonly shape: LegShape = { y: 0, slope: 0, curvature: 0 };
  /** The last point that was whole (finite), to go back to when rounding loses the current one. */
  private readonly good: { z: Float64Array; lam: Float64Array };
  /**
   * The largest steps (primal, dual) up to 1 that keep the positive unknowns positive, times the fraction asked
   * for, as `direction` found them.
   */
  primalStep = 1;
  dualStep = 1;
  /** At the current point: the largest residual, the sum of s lam, z zeta and (cap - z) omega, what reaches tokenOut. */
  worst = 0;
  private complementarity = 0;
  output = 0;
  iterations = 0;

  constructor(
    private readonly graph: FlowGraph,
    private readonly p: ScaledFlow,
    private readonly scale: Float64Array,
    private readonly z: Float64Array,
  ) {
    const E = (this.E = p.legs.length);
    const m = (this.m = p.m);
    [this.F, this.G, this.C, this.zeta, this.omega, this.rd, this.Q, this.dz, this.dzeta, this.domega, this.targetZ, this.targetC] = Array.from({ length: 12 }, () => new Float64Array(E));
    [this.g, this.slack, this.rp, this.rhs, this.dlam, this.dslack, this.targetS] = Array.from({ length: 7 }, () => new Float64Array(m));
    this.lam = new Float64Array(m).fill(1);
    this.capped = new Uint8Array(E);
    this.matrix = new Float64Array(m * m);
    this.evaluate(z);
    for (let r = 0; r < m; r++) this.slack[r] = Math.max(this.g[r], 1e-3);
    for (let k = 0; k < E; k++) {
      this.capped[k] = p.cap[k] < Infinity ? 1 : 0;
      this.zeta[k] = 0.1 / z[k];
      this.omega[k] = this.capped[k] ? 0.1 / (p.cap[k] - z[k]) : 0;
    }
    this.N = m + E + this.capped.reduce((a, b) => a + b, 0);
    this.good = { z: Float64Array.from(z), lam: Float64Array.from(this.lam) };
  }

  /** f, f', f'' of every leg and the balances at `at`. */
  private evaluate(at: Float64Array): void {
    const { graph, p, F, G, C, g, shape } = this;
    g.fill(0);
    g[0] = 1;
    for (let k = 0; k < this.E; k++) {
      graph.legs[p.legs[k]].shape(at[k] * p.toUnits[k], shape);
      F[k] = shape.y * p.outScale[k];
      G[k] = shape.slope * p.slopeScale[k];
      C[k] = shape.curvature * p.curveScale[k];
      g[p.ru[k]] -= at[k];
      if (p.rv[k] >= 0) g[p.rv[k]] += F[k];
    }
  }

  /** Primal residuals rp = g(z) - s (taken into `worst`); returns mu, the mean complementarity. */
  primalResiduals(): number {
    for (let r = 0; r < this.m; r++) {
      this.rp[r] = this.g[r] - this.slack[r];
      this.worst = Math.max(this.worst, Math.abs(this.rp[r]));
    }
    return this.complementarity / this.N;
  }

  keepGood(): void {
    this.good.z.set(this.z);
    this.good.lam.set(this.lam);
  }

  /** Lost to rounding: back to the last point that was whole. */
  backToGood(): void {
    this.z.set(this.good.z);
    this.lam.set(this.good.lam);
    this.evaluate(this.z);
  }

  /**
   * The Newton direction: for the predictor (`corrector` false) complementarity targets 0, else targetS, targetZ
   * and targetC, set here from `target` and the predictor's direction. Fills dz, dlam, dslack, dzeta, domega, and
   * primalStep / dualStep for `fraction`; the matrix is factored for the predictor and kept for its corrector.
   */
  direction(corrector: boolean, fraction: number, target: number): boolean {
    this.reduce(corrector, target);
    if (!corrector && !cholesky(this.matrix, this.m)) return false;
    solveCholesky(this.matrix, this.m, this.rhs);
    this.dlam.set(this.rhs);
    this.expand(corrector, fraction);
    return true;
  }

  /**
   * The reduced system: the predictor builds the matrix in the same pass over the legs as the right-hand side; the
   * corrector sets its complementarity targets (the predictor's second-order terms taken off `target`) in it.
   * rho_e = -rd_e - rz_e / z_e + rc_e / (cap_e - z_e) (left in dz); rhs = -rp + A Q^-1 rho + rs / lam.
   */
  private reduce(corrector: boolean, target: number): void {
    const { p, m, matrix, rhs, slack, lam, rp, targetS, targetZ, targetC, dz, dzeta, domega, dslack, dlam, Q, G, z, zeta, omega, capped, rd } = this;
    const cap = p.cap;
    if (!corrector) {
      matrix.fill(0);
      for (let r = 0; r < m; r++) matrix[r * m + r] = slack[r] / lam[r];
    }
    for (let r = 0; r < m; r++) {
      if (corrector) targetS[r] = target - dslack[r] * dlam[r];
      rhs[r] = -rp[r] + ((corrector ? targetS[r] : 0) - slack[r] * lam[r]) / lam[r];
    }
    for (let k = 0; k < this.E; k++) {
      const a = p.ru[k];
      const b = p.rv[k];
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
  }

  /** From dlam back to dz, dzeta, domega and dslack, and the largest steps that keep the positive unknowns positive. */
  private expand(corrector: boolean, fraction: number): void {
    const { p, m, slack, lam, targetS, targetZ, targetC, dz, dzeta, domega, dslack, dlam, Q, G, z, zeta, omega, capped } = this;
    const cap = p.cap;
    let pStep = 1;
    let dStep = 1;
    for (let k = 0; k < this.E; k++) {
      const zk = z[k];
      const b = p.rv[k];
      const aTd = -dlam[p.ru[k]] + (b >= 0 ? G[k] * dlam[b] : 0);
      const dzk = (aTd - dz[k]) / Q[k];
      dz[k] = dzk;
      const dzetak = ((corrector ? targetZ[k] : 0) - zk * zeta[k] - zeta[k] * dzk) / zk;
      dzeta[k] = dzetak;
      if (dzk < 0) pStep = Math.min(pStep, (-fraction * zk) / dzk);
      if (dzetak < 0) dStep = Math.min(dStep, (-fraction * zeta[k]) / dzetak);
      if (capped[k]) {
        const domegak = ((corrector ? targetC[k] : 0) - (cap[k] - zk) * omega[k] + omega[k] * dzk) / (cap[k] - zk);
        domega[k] = domegak;
        if (dzk > 0) pStep = Math.min(pStep, (fraction * (cap[k] - zk)) / dzk);
        if (domegak < 0) dStep = Math.min(dStep, (-fraction * omega[k]) / domegak);
      } else {
        domega[k] = 0;
      }
    }
    for (let r = 0; r < m; r++) {
      const ds = ((corrector ? targetS[r] : 0) - slack[r] * lam[r] - slack[r] * dlam[r]) / lam[r];
      dslack[r] = ds;
      if (ds < 0) pStep = Math.min(pStep, (-fraction * slack[r]) / ds);
      if (dlam[r] < 0) dStep = Math.min(dStep, (-fraction * lam[r]) / dlam[r]);
    }
    this.primalStep = pStep;
    this.dualStep = dStep;
  }

  /** The mean complementarity after the predictor's full steps (what sets the corrector's centring). */
  affineMu(): number {
    const { p, m, slack, lam, dslack, dlam, z, dz, zeta, dzeta, omega, domega, capped } = this;
    const pa = this.primalStep;
    const da = this.dualStep;
    let muAffine = 0;
    for (let r = 0; r < m; r++) muAffine += (slack[r] + pa * dslack[r]) * (lam[r] + da * dlam[r]);
    for (let k = 0; k < this.E; k++) {
      muAffine += (z[k] + pa * dz[k]) * (zeta[k] + da * dzeta[k]);
      if (capped[k]) muAffine += (p.cap[k] - z[k] - pa * dz[k]) * (omega[k] + da * domega[k]);
    }
    return muAffine / this.N;
  }

  /**
   * Moves every unknown by the steps found and evaluates the new point in one pass over the legs, taking their
   * residuals for the next step: dual rd_e = (lam_v or 1) f'_e - lam_u + zeta_e - omega_e, and Q_e (dz and the rest
   * are 0 before the first step).
   */
  move(pStep: number, dStep: number): void {
    const { graph, p, m, slack, lam, dslack, dlam, g, z, dz, zeta, dzeta, omega, domega, F, G, C, rd, Q, capped, shape } = this;
    let worst = 0;
    let complementarity = 0;
    let output = 0;
    for (let r = 0; r < m; r++) {
      slack[r] += pStep * dslack[r];
      lam[r] += dStep * dlam[r];
      complementarity += slack[r] * lam[r];
    }
    g.fill(0);
    g[0] = 1;
    for (let k = 0; k < this.E; k++) {
      const zk = z[k] + pStep * dz[k];
      z[k] = zk;
      graph.legs[p.legs[k]].shape(zk * p.toUnits[k], shape);
      const fk = shape.y * p.outScale[k];
      F[k] = fk;
      const gk = shape.slope * p.slopeScale[k];
      G[k] = gk;
      const ck = shape.curvature * p.curveScale[k];
      C[k] = ck;
      g[p.ru[k]] -= zk;
      if (p.rv[k] >= 0) g[p.rv[k]] += fk;
      const zetak = zeta[k] + dStep * dzeta[k];
      zeta[k] = zetak;
      const omegak = omega[k] + dStep * domega[k];
      omega[k] = omegak;
      const price = p.rv[k] < 0 ? 1 : lam[p.rv[k]];
      const rdk = price * gk - lam[p.ru[k]] + zetak - omegak;
      rd[k] = rdk;
      Q[k] = -price * ck + zetak / zk + (capped[k] ? omegak / (p.cap[k] - zk) : 0);
      worst = Math.max(worst, Math.abs(rdk));
      complementarity += zk * zetak + (capped[k] ? (p.cap[k] - zk) * omegak : 0);
      if (p.rv[k] < 0) output += fk;
    }
    this.worst = worst;
    this.complementarity = complementarity;
    this.output = output;
  }

  /** The current point as a solution, in the graph's units. */
  solution(): FlowSolution {
    const { graph, p, scale, lam, z, F, g } = this;
    const prices = new Float64Array(p.n);
    prices[TOKEN_OUT_INDEX] = 1;
    // Tokens without a balance (no leg taken touches them) have no price: 0.
    for (let t = 0; t < p.n; t++) if (t !== TOKEN_OUT_INDEX && p.rowOf[t] >= 0) prices[t] = lam[p.rowOf[t]] * scale[t];
    const inputs = new Float64Array(graph.legs.length);
    const outputs = new Float64Array(graph.legs.length);
    let amountOut = 0;
    for (let k = 0; k < this.E; k++) {
      inputs[p.legs[k]] = z[k] * p.toUnits[k];
      outputs[p.legs[k]] = F[k] / p.outScale[k];
      if (p.rv[k] < 0) amountOut += outputs[p.legs[k]];
    }
    return { prices, inputs, outputs, amountOut, unspent: Math.max(0, g[0]), iterations: this.iterations };
  }
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
