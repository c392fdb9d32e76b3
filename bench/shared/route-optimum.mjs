// The reference of bench/route-quality, written apart from the routing engine (nothing here comes from
// libs/routing): each pool side as a real-number output function from the protocol's own formula, the best
// one-path route (one token path, each hop split across its parallel pools), and the convex optimum of a trade
// split in any way across any set of loop-free paths through every pool, solved as a linear programme with the
// HiGHS solver.
//
// Pool sides. `out(x)` is the output for x base units in, a concave function on [0, cap]; `slope(x)` its right
// derivative; `lines(t)` straight lines that lie on or above `out` everywhere and touch it at t (the tangent,
// or the segment through t of a piecewise-linear side); `inputAt(lambda)` the largest input whose marginal rate
// is still at least lambda.
//   v2Side       x*y = k with the fee taken from the input
//   stableSide   x^3*y + x*y^3 = k on amounts in whole tokens, the fee taken from the input
//   curveBuySide / curveSellSide   the launchpad's bonding curve (virtual reserves, x*y = k), the 1% fee on the
//                native side, a buy up to what sells the rest of the allotment, a sale up to the native coin raised
//   concentratedSide   a concentrated-liquidity pool (Uniswap V3, Algebra): within each range between initialized
//                ticks a constant-product curve on the virtual reserves L / sqrtP and L * sqrtP, the liquidity
//                changing where the price crosses a tick, the fee taken from the input, up to the input that
//                takes the price to the last initialized tick (ranges without liquidity take no input)
//   sampledSide  a pool known by samples of its own quote (core pools' estimateSwap, a sampled V4 pool's V4Quoter,
//                a Curve NG pool's get_dy for one of its coin pairs): the least concave function
//                through the samples (their upper concave hull), linear between them, nothing above the largest
//
// The optimum. Variables per pool side e: input x_e in [0, cap_e] and output y_e in [0, sup_e]. Every line of e
// bounds y_e <= a + b * x_e; a token other than tokenIn and tokenOut sends out at most what it receives; tokenIn
// sends out exactly the trade's input; the objective is what reaches tokenOut. No side leads into tokenIn or out
// of tokenOut. Each side starts with its lines at 0, at inputs worth 1%, 10% and 100% of the trade and at its
// cap; after each solve, every side whose y_e overstates out(x_e) by more than 1e-9 of what the trade pays gets
// the tangent at x_e (Kelley's cutting planes), until none does. Every line lies on or above its function, so
// the programme's optimum U is an upper bound of the real-number optimum, and it closes onto it. The lower
// bound L is a real route: the programme's flow carried token by token in topological order through the true
// functions (each token's outgoing inputs scaled to what it really received). L <= optimum <= U; the bench rates
// routes against U and reports the largest U / L - 1.
//
// Loops. A free loop (pools of a cycle whose rates multiply to more than 1) would let the programme pump profit
// into tokenOut. Routes are loop-free: their token graph (an arc a -> b where some swap trades a for b) is
// acyclic. The optimum over loop-free flows is found by branch and bound: when the programme's flow holds a
// cycle, one child per arc of the cycle forbids that arc (every loop-free flow lacks at least one of them), the
// children are solved, and the search goes on best bound first until the best open node is loop-free: its U is
// then an upper bound of every loop-free flow and its replay L a loop-free route. The children partition their
// node's loop-free flows (each flow to the child of the first arc it lacks): child k forbids the cycle's k-th arc
// not yet required and requires those before it, so it also forbids every arc that would close a cycle with its
// required arcs (a token graph linking many tokens both ways, as Curve pools link stablecoins, would otherwise
// branch on the same orientations again and again).
//
// Input the pools cannot carry. When even the unconstrained optimum leaves part of the input behind (a token
// keeps more than it sends on, or a side is credited with less than its function pays: the pools on from
// there are at their caps), no exact-input route spends the input: the trade is 'capped'.
//
// Amounts in the programme are scaled per token to the trade's value (1 = the trade's input in USD), so that
// coefficients stay near 1 whatever the tokens' decimals.

import loadHighs from 'highs';

/** Pool sides: the output of x base units in. */

export function v2Side(reserveIn, reserveOut, feeBps) {
  const g = 1 - feeBps / 10_000;
  const ri = Number(reserveIn);
  const ro = Number(reserveOut);
  const out = (x) => (g * x * ro) / (ri + g * x);
  const slope = (x) => (g * ri * ro) / (ri + g * x) ** 2;
  return smooth({ cap: Infinity, sup: ro, out, slope, inputAt: (lambda) => Math.max(0, (Math.sqrt((g * ri * ro) / lambda) - ri) / g) });
}

/** Solidly stable pool: x^3 y + x y^3 = k on whole tokens (decimals at most 18), the fee from the input. */
export function stableSide(reserveIn, reserveOut, decimalsIn, decimalsOut, feeBps) {
  const g = 1 - feeBps / 10_000;
  const ui = 10 ** decimalsIn;
  const uo = 10 ** decimalsOut;
  const X = Number(reserveIn) / ui;
  const Y = Number(reserveOut) / uo;
  // The output b for a (net) input a, both in whole tokens: the root of
  //   D(a, b) = (X + a)^3 (Y - b) + (X + a)(Y - b)^3 - X^3 Y - X Y^3
  // written out so that no term is a difference of two large numbers (the output of a small trade in a deep
  // pool keeps its relative precision), found by Newton from b = 0 (D is convex and falling in b on [0, Y), so
  // each tangent's root lies below the root and the iterates rise monotonically onto it).
  const outOf = (a) => {
    if (!(a > 0)) return 0;
    const p = 3 * X * X * a + 3 * X * a * a + a * a * a; // (X + a)^3 - X^3
    const x = X + a;
    let b = 0;
    for (let i = 0; i < 200; i++) {
      const yb = Y - b;
      const d = -X * X * X * b + p * yb + X * (-3 * Y * Y * b + 3 * Y * b * b - b * b * b) + a * yb * yb * yb;
      const slope = x * x * x + 3 * x * yb * yb; // -dD/db
      const step = d / slope;
      b += step;
      if (!(step > b * 1e-16)) break;
    }
    return Math.min(b, Y);
  };
  const out = (x) => (x <= 0 ? 0 : outOf((g * x) / ui) * uo);
  const slope = (x) => {
    const a = (g * Math.max(x, 0)) / ui;
    const x0 = X + a;
    const y = Y - outOf(a);
    return ((g * uo) / ui) * ((3 * x0 * x0 * y + y * y * y) / (x0 * x0 * x0 + 3 * x0 * y * y));
  };
  return smooth({ cap: Infinity, sup: Y * uo, out, slope, inputAt: (lambda) => bisectInputAt(slope, lambda, X * ui) });
}

/**
 * A concentrated-liquidity pool side, in float: `pool` holds sqrtPriceX96, tick, liquidity, fee (pips) and ticks
 * [{ index, liquidityNet }] (every initialized tick); `zeroForOne` sells token0. The price walks from the current
 * one through the ticks in the swap's direction: crossing a tick downwards takes its liquidityNet off, upwards adds
 * it. Each range with liquidity is one segment of the input axis with its virtual reserves at its start (in, out):
 * selling token0 (L / sqrtP, L * sqrtP), selling token1 (L * sqrtP, L / sqrtP); the output of a net input u within
 * it is out * u / (in + u). The fee takes `fee` / 1e6 of the gross input. The marginal rate is fee factor times the
 * price, falling as the price moves and jumping down across a range without liquidity: the function is concave.
 */
export function concentratedSide(pool, zeroForOne) {
  const g = 1 - pool.fee / 1e6;
  const ticks = [...pool.ticks].map((t) => ({ index: t.index, net: Number(t.liquidityNet) })).sort((a, b) => a.index - b.index);
  // log1p: 1.0001 itself is not a float, and its rounding would move far ticks by parts in 1e12.
  const sqrtTick = (t) => Math.exp((t * Math.log1p(1e-4)) / 2);
  let s = Number(pool.sqrtPriceX96) / 2 ** 96;
  let L = Number(pool.liquidity);
  const x0 = [];
  const y0 = [];
  const rin = [];
  const rout = [];
  let x = 0;
  let y = 0;
  const walk = (to) => {
    if (L > 0 && to !== s) {
      const [ri, ro, dIn, dOut] = zeroForOne ? [L / s, L * s, L / to - L / s, L * (s - to)] : [L * s, L / s, L * (to - s), L / s - L / to];
      if (dIn > 0 && dOut > 0) {
        x0.push(x);
        y0.push(y);
        rin.push(ri);
        rout.push(ro);
        x += dIn / g;
        y += dOut;
      }
    }
    s = to;
  };
  if (zeroForOne) {
    for (let k = ticks.length - 1; k >= 0; k--) {
      if (ticks[k].index > pool.tick) continue;
      walk(sqrtTick(ticks[k].index));
      L -= ticks[k].net;
    }
  } else {
    for (const t of ticks) {
      if (t.index <= pool.tick) continue;
      walk(sqrtTick(t.index));
      L += t.net;
    }
  }
  const n = rin.length;
  const cap = x;
  const sup = y;
  const segment = (v) => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (x0[mid] <= v) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const side = smooth({
    cap,
    sup,
    out: (v) => {
      if (!(v > 0) || n === 0) return 0;
      if (v >= cap) return sup;
      const k = segment(v);
      const u = g * (v - x0[k]);
      return y0[k] + (rout[k] * u) / (rin[k] + u);
    },
    slope: (v) => {
      if (n === 0 || v >= cap) return 0;
      const k = segment(Math.max(v, 0));
      const d = rin[k] + g * (Math.max(v, 0) - x0[k]);
      return (g * rin[k] * rout[k]) / (d * d);
    },
    inputAt: (lambda) => {
      // The last segment whose starting rate is at least lambda; the rate reaches lambda in it or at its end.
      let v = 0;
      for (let k = 0; k < n && (g * rout[k]) / rin[k] >= lambda; k++) {
        const end = k + 1 < n ? x0[k + 1] : cap;
        v = Math.min(end, x0[k] + (Math.sqrt((g * rin[k] * rout[k]) / lambda) - rin[k]) / g);
      }
      return v;
    },
  });
  return { ...side, segments: n };
}

/** A launchpad buy: native in (1% fee off it), tokens out, up to the native coin that sells the allotment out. */
export function curveBuySide(nativeReserve, tokenReserve, tokensForSale, feeBps = 100) {
  const g = 1 - feeBps / 10_000;
  const X = Number(nativeReserve);
  const Y = Number(tokenReserve);
  const K = X * Y;
  const floor = Y - Number(tokensForSale);
  const cap = Number(tokensForSale) > 0 && floor > 0 ? (K / floor - X) / g : 0;
  return smooth({
    cap,
    sup: Y - floor,
    out: (a) => Y - K / (X + g * Math.min(a, cap)),
    slope: (a) => (g * K) / (X + g * a) ** 2,
    inputAt: (lambda) => Math.min(cap, Math.max(0, (Math.sqrt((g * K) / lambda) - X) / g)),
  });
}

/** A launchpad sale: tokens in, native out less the 1% fee, up to the sale whose gross takes all the native raised. */
export function curveSellSide(nativeReserve, tokenReserve, realNativeReserve, feeBps = 100) {
  const g = 1 - feeBps / 10_000;
  const X = Number(nativeReserve);
  const Y = Number(tokenReserve);
  const K = X * Y;
  const real = Number(realNativeReserve);
  const cap = real <= 0 ? 0 : X - real <= 0 ? Infinity : K / (X - real) - Y;
  return smooth({
    cap,
    sup: g * Math.min(X, real),
    out: (t) => g * (X - K / (Y + Math.min(t, cap))),
    slope: (t) => (g * K) / (Y + t) ** 2,
    inputAt: (lambda) => Math.min(cap, Math.max(0, Math.sqrt((g * K) / lambda) - Y)),
  });
}

/** The largest x in [0, scale * 2^60] with slope(x) >= lambda, for a decreasing slope (bisection, float64). */
function bisectInputAt(slope, lambda, scale) {
  if (slope(0) < lambda) return 0;
  let lo = 0;
  let hi = Math.max(scale, 1);
  while (slope(hi) >= lambda) {
    lo = hi;
    hi *= 2;
    if (hi > scale * 2 ** 60) return hi;
  }
  for (let i = 0; i < 200 && hi - lo > lo * 1e-15; i++) {
    const mid = (lo + hi) / 2;
    if (slope(mid) >= lambda) lo = mid;
    else hi = mid;
  }
  return lo;
}

function smooth(side) {
  return {
    ...side,
    kind: 'smooth',
    lines(t) {
      const x = Math.min(Math.max(t, 0), side.cap);
      const b = side.slope(x);
      return [{ a: side.out(x) - b * x, b }];
    },
  };
}

/**
 * A pool side known by samples of its quote (amountIn, amountOut as numbers or bigints): the upper concave hull
 * of the origin and the samples, linear between its vertices, up to the largest sampled input. `offHull` counts
 * the samples under the hull (the quote's own rounding, or a marginal rate that rises somewhere).
 */
export function sampledSide(samples) {
  const pts = [[0, 0], ...samples.map((s) => [Number(s.amountIn), Number(s.amountOut)]).filter(([a]) => a > 0).sort((p, q) => p[0] - q[0])];
  const hull = [];
  for (const p of pts) {
    if (hull.length && p[0] === hull[hull.length - 1][0]) {
      if (p[1] <= hull[hull.length - 1][1]) continue;
      hull.pop();
    }
    // Keep the chain concave: drop the last vertex while it lies on or below the chord from its predecessor to p.
    while (hull.length >= 2) {
      const [o, m] = [hull[hull.length - 2], hull[hull.length - 1]];
      if ((m[1] - o[1]) * (p[0] - o[0]) <= (p[1] - o[1]) * (m[0] - o[0])) hull.pop();
      else break;
    }
    hull.push(p);
  }
  const xs = hull.map((p) => p[0]);
  const ys = hull.map((p) => p[1]);
  const slopes = xs.slice(1).map((x, i) => (ys[i + 1] - ys[i]) / (x - xs[i]));
  const cap = xs[xs.length - 1];
  const segment = (x) => {
    let lo = 0;
    let hi = xs.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] <= x) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  const line = (i) => ({ a: ys[i] - slopes[i] * xs[i], b: slopes[i] });
  return {
    kind: 'sampled',
    cap: slopes.length ? cap : 0,
    sup: ys[ys.length - 1],
    offHull: pts.length - hull.length,
    vertices: xs.length,
    out(x) {
      if (x <= 0 || slopes.length === 0) return 0;
      if (x >= cap) return ys[ys.length - 1];
      const i = segment(x);
      return ys[i] + (x - xs[i]) * slopes[i];
    },
    slope(x) {
      if (slopes.length === 0 || x >= cap) return 0;
      return slopes[segment(Math.max(x, 0))];
    },
    inputAt(lambda) {
      let x = 0;
      for (let i = 0; i < slopes.length && slopes[i] >= lambda; i++) x = xs[i + 1];
      return x;
    },
    lines(t) {
      if (slopes.length === 0) return [{ a: 0, b: 0 }];
      const x = Math.min(Math.max(t, 0), cap);
      const i = Math.min(segment(x), slopes.length - 1);
      const out = [line(i)];
      // At a vertex the segment on either side touches: both lines.
      if (xs[i] === x && i > 0) out.push(line(i - 1));
      if (xs[i + 1] !== undefined && Math.abs(xs[i + 1] - x) <= x * 1e-12 && i + 1 < slopes.length) out.push(line(i + 1));
      return out;
    },
  };
}

/** One hop of a path: the best real-number split of `amount` across parallel sides (equal marginal rates). */
export function splitHop(sides, amount) {
  const capTotal = sides.reduce((s, c) => s + c.cap, 0);
  if (!(amount <= capTotal * (1 + 1e-12))) return { out: -Infinity };
  if (sides.length === 1) return { out: sides[0].out(Math.min(amount, sides[0].cap)), inputs: [amount] };
  const inputsAt = (lambda) => sides.map((c) => Math.min(c.cap, c.inputAt(lambda)));
  const total = (xs) => xs.reduce((a, b) => a + b, 0);
  let hi = Math.max(...sides.map((c) => c.slope(0))) * 2;
  let lo = hi / 2;
  for (let i = 0; i < 4000 && total(inputsAt(lo)) < amount; i++) lo /= 2;
  for (let i = 0; i < 300 && hi / lo - 1 > 1e-15; i++) {
    const mid = Math.sqrt(lo * hi);
    if (total(inputsAt(mid)) >= amount) lo = mid;
    else hi = mid;
  }
  // Between the two rates: the part of each side's input that changes, shared pro rata (a flat piece of a
  // sampled side, or the last bit of bisection), so that the inputs add up to the amount.
  const a = inputsAt(hi);
  const b = inputsAt(lo);
  const sa = total(a);
  const sb = total(b);
  const t = sb > sa ? Math.min(1, Math.max(0, (amount - sa) / (sb - sa))) : 0;
  const inputs = sides.map((_, j) => a[j] + t * (b[j] - a[j]));
  return { out: sides.reduce((sum, c, j) => sum + c.out(Math.min(inputs[j], c.cap)), 0), inputs };
}

/**
 * The best one-path route: every simple token path of up to `maxHops` hops, each hop's amount split across all
 * of the hop's parallel sides at equal marginal rates (hop after hop: the best split of a hop gives the next
 * hop the most, so this is the path's real-number optimum); the best path is kept.
 * `edges`: [{ from, to, side }]. Returns { out, path, hops }: each hop's sides and the inputs it splits among them.
 */
export function bestOnePath(edges, tokenIn, tokenOut, amount, maxHops) {
  const next = new Map();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, new Map());
    const m = next.get(e.from);
    if (!m.has(e.to)) m.set(e.to, []);
    m.get(e.to).push(e.side);
  }
  // Tokens that reach tokenOut in h hops or fewer, to skip dead ends.
  const reaches = [new Set([tokenOut])];
  for (let h = 1; h <= maxHops; h++) {
    const s = new Set(reaches[h - 1]);
    for (const [from, m] of next) for (const to of m.keys()) if (reaches[h - 1].has(to)) s.add(from);
    reaches.push(s);
  }
  let best = { out: 0, path: undefined, hops: undefined };
  const walk = (path, amt, done) => {
    const here = path[path.length - 1];
    const hops = path.length - 1;
    for (const [to, sides] of next.get(here) ?? []) {
      if (path.includes(to)) continue;
      if (to !== tokenOut && (hops + 1 >= maxHops || !reaches[maxHops - hops - 1].has(to))) continue;
      const { out, inputs } = splitHop(sides, amt);
      if (!(out > 0)) continue;
      const split = [...done, { from: here, to, sides, inputs, out }];
      if (to === tokenOut) {
        if (out > best.out) best = { out, path: [...path, to], hops: split };
      } else walk([...path, to], out, split);
    }
  };
  walk([tokenIn], amount, []);
  return best;
}

// ---------------------------------------------------------------- the convex optimum

let highsPromise;
/** The HiGHS solver (WebAssembly), loaded once. */
export function loadSolver() {
  highsPromise ??= loadHighs();
  return highsPromise;
}

/** Kelley rounds per node at most (a node that needs more is reported uncertified). */
const MAX_ROUNDS = 400;
/** Where each side gets its first lines besides 0 and its cap: inputs worth these fractions of the trade. */
const INITIAL_LINES = [0.01, 0.1, 1];
/** How far a side's output may overstate its function, as a fraction of what the trade pays (scaled). */
const CUT_TOLERANCE = 1e-9;
/** The solver's feasibility tolerances. */
const LP_TOLERANCE = 1e-10;
/** Lines flatter than this (scaled) are left out: the solver would drop the coefficient and keep a wrong line. */
const FLAT_LINE = 1e-11;
/**
 * Flows below this (scaled: 1 = the trade's value) are not arcs of the token graph: they are the solver's
 * tolerance, not a route (dropping them from the replay costs at most about as much of the output).
 */
const ARC_FLOW = 1e-8;
/** The best flow splits across paths when arcs carrying more than this share of the input leave one token path. */
const SPLIT_FLOW = 1e-6;
/** Input left at a token (scaled) beyond which the best flow does not spend the whole input. */
const UNSPENT = 1e-7;

/**
 * The loop-free optimum of one exact-input trade.
 *
 *   edges      [{ from, to, side }] every pool side of the graph (sides with cap 0 are skipped)
 *   scale      token -> the scaled value of one base unit (USD per base unit / trade's USD value)
 *   tokenIn, tokenOut, amount (base units of tokenIn, a number)
 *   maxNodes   branch-and-bound nodes at most (the answer says whether it finished)
 *
 * Returns { status: 'optimal' | 'capped' | 'infeasible' | 'unfinished', upper, lower (tokenOut base units), gap
 * (upper / lower - 1), nodes, rounds, certified (every node's cutting planes closed), splits (the best flow
 * leaves one token path), arcs (the loop-free flow's arcs) }. 'unfinished': out of nodes; `upper` still bounds the
 * loop-free optimum. 'infeasible': the pools out of tokenIn cannot take the input at all.
 * 'capped': the best flow leaves part of the input unspent at some token (the pools on from there cannot take
 * it: a curve sold out, a sampled pool at its top), so no exact-input route exists at this size.
 */
export async function convexOptimum({ edges: allEdges, scale, tokenIn, tokenOut, amount, maxNodes = 400 }) {
  const highs = await loadSolver();
  const edges = allEdges.filter((e) => e.side.cap > 0 && e.to !== tokenIn && e.from !== tokenOut && e.from !== e.to);
  const tokens = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  if (!tokens.includes(tokenIn) || !tokens.includes(tokenOut)) return { status: 'infeasible' };
  const row = new Map(tokens.filter((t) => t !== tokenOut).map((t, i) => [t, i]));
  const E = edges.length;
  const sIn = edges.map((e) => scale.get(e.from));
  const sOut = edges.map((e) => scale.get(e.to));
  // Columns: x_e = 2e, y_e = 2e + 1 (scaled). Rows: one balance per token but tokenOut, then the lines.
  const colCost = new Float64Array(2 * E);
  const colLower = new Float64Array(2 * E);
  const colUpper = new Float64Array(2 * E).fill(Infinity);
  edges.forEach((e, i) => {
    colUpper[2 * i] = e.side.cap === Infinity ? Infinity : e.side.cap * sIn[i];
    colUpper[2 * i + 1] = e.side.sup * sOut[i];
    if (e.to === tokenOut) colCost[2 * i + 1] = 1;
  });
  const perRow = tokens.filter((t) => t !== tokenOut).map(() => ({ indices: [], values: [] }));
  edges.forEach((e, i) => {
    perRow[row.get(e.from)].indices.push(2 * i);
    perRow[row.get(e.from)].values.push(1);
    if (e.to !== tokenOut) {
      perRow[row.get(e.to)].indices.push(2 * i + 1);
      perRow[row.get(e.to)].values.push(-1);
    }
  });
  const input = amount * scale.get(tokenIn); // about 1, but the amount is a whole number of base units
  const rowLower = perRow.map((_, r) => (r === row.get(tokenIn) ? input : -Infinity));
  const rowUpper = perRow.map((_, r) => (r === row.get(tokenIn) ? input : 0));
  const csr = (rows) => {
    const starts = [0];
    const indices = [];
    const values = [];
    for (const r of rows) {
      // Sorted, no duplicate column within a row.
      const order = r.indices.map((_, k) => k).sort((a, b) => r.indices[a] - r.indices[b]);
      for (const k of order) {
        indices.push(r.indices[k]);
        values.push(r.values[k]);
      }
      starts.push(indices.length);
    }
    return { starts: Int32Array.from(starts), indices: Int32Array.from(indices), values: Float64Array.from(values) };
  };
  const model = highs.createModel({
    numCols: 2 * E,
    numRows: perRow.length,
    sense: highs.constants.objectiveSense.maximize,
    colCost,
    colLower,
    colUpper,
    rowLower,
    rowUpper,
    matrix: { format: 'csr', numRows: perRow.length, numCols: 2 * E, ...csr(perRow) },
  });
  try {
    model.options.set({ output_flag: false, primal_feasibility_tolerance: LP_TOLERANCE, dual_feasibility_tolerance: LP_TOLERANCE, small_matrix_value: 1e-12 });
    const cuts = edges.map(() => []); // per side, the inputs it has a line at (besides the first ones)
    const addLines = (lines) => {
      // [{ e, a, b }] in base units: y <= a + b x  ->  y~ - b (sOut / sIn) x~ <= a sOut.
      const list = lines.filter(({ e, b }) => b * (sOut[e] / sIn[e]) >= FLAT_LINE);
      if (list.length === 0) return;
      const rows = list.map(({ e, b }) => ({ indices: [2 * e, 2 * e + 1], values: [-b * (sOut[e] / sIn[e]), 1] }));
      const m = csr(rows);
      model.addRows({
        lower: new Float64Array(list.length).fill(-Infinity),
        upper: Float64Array.from(list.map(({ e, a }) => a * sOut[e])),
        matrix: { format: 'csr', numRows: list.length, numCols: 2 * E, ...m },
      });
    };
    // First lines: at 0 (the spot rate), at inputs worth 1%, 10% and 100% of the trade, and at a capped side's cap.
    addLines(
      edges.flatMap((e, i) =>
        [0, ...INITIAL_LINES.map((f) => f / sIn[i]).filter((t) => t < e.side.cap), ...(e.side.cap < Infinity ? [e.side.cap] : [])].flatMap((t) => e.side.lines(t)).map((l) => ({ e: i, ...l })),
      ),
    );

    const arcsOf = new Map(); // "from>to" -> edge indices
    edges.forEach((e, i) => {
      const k = `${e.from}>${e.to}`;
      if (!arcsOf.has(k)) arcsOf.set(k, []);
      arcsOf.get(k).push(i);
    });
    let forbidden = new Set();
    const setForbidden = (next) => {
      for (const k of forbidden) if (!next.has(k)) for (const i of arcsOf.get(k)) model.changeColBounds(2 * i, 0, colUpper[2 * i]);
      for (const k of next) if (!forbidden.has(k)) for (const i of arcsOf.get(k)) model.changeColBounds(2 * i, 0, 0);
      forbidden = next;
    };
    let rounds = 0;
    /** Solves the node (Kelley rounds until no side's output overstates its function); undefined when infeasible. */
    const solveNode = (set) => {
      setForbidden(set);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        rounds++;
        const status = runModel(highs, model);
        if (status !== highs.constants.modelStatus.optimal) {
          if (status === highs.constants.modelStatus.infeasible) return undefined;
          throw new Error(`the optimum's programme ended with status ${status} in round ${round} (forbidden arcs: ${[...set].join(', ') || 'none'})`);
        }
        const v = model.getSolution().colValue;
        // Relative to what the trade pays (scaled): a trade that pays a small part of its value (deep price
        // impact) needs its lines as tight relative to that.
        const tolerance = CUT_TOLERANCE * Math.min(1, Math.max(model.getObjectiveValue(), 1e-3));
        const add = [];
        for (let i = 0; i < E; i++) {
          const xs = v[2 * i];
          if (!(xs > 0)) continue;
          const x = xs / sIn[i];
          const over = v[2 * i + 1] - edges[i].side.out(Math.min(x, edges[i].side.cap)) * sOut[i];
          // A side gets a line at x once: a second would only repeat it (the solver's own tolerance).
          if (over > tolerance && !cuts[i].some((t) => Math.abs(t - x) <= x * 1e-12)) {
            cuts[i].push(x);
            for (const l of edges[i].side.lines(x)) add.push({ e: i, ...l });
          }
        }
        if (add.length === 0) return { upper: model.getObjectiveValue(), v: Float64Array.from(v), rowValue: Float64Array.from(model.getSolution().rowValue) };
        addLines(add);
      }
      const v = model.getSolution().colValue;
      return { upper: model.getObjectiveValue(), v: Float64Array.from(v), rowValue: Float64Array.from(model.getSolution().rowValue), unconverged: true };
    };

    const arcsIn = (v, least = ARC_FLOW) => {
      const arcs = new Map();
      for (let i = 0; i < E; i++) {
        if (!(v[2 * i] > least)) continue;
        const e = edges[i];
        if (!arcs.has(e.from)) arcs.set(e.from, new Set());
        arcs.get(e.from).add(e.to);
      }
      return arcs;
    };
    // Input the flow does not carry on: a token keeping more than it sends (its balance row's slack), or a side
    // credited with less than its function pays for its input (the programme may take less than a line allows).
    const unspentOf = (sol) => {
      let lost = 0;
      for (const [t, r] of row) if (t !== tokenIn) lost += Math.max(0, -sol.rowValue[r]);
      for (let i = 0; i < E; i++) {
        if (!(sol.v[2 * i] > 0)) continue;
        lost += Math.max(0, edges[i].side.out(Math.min(sol.v[2 * i] / sIn[i], edges[i].side.cap)) * sOut[i] - sol.v[2 * i + 1]);
      }
      return lost;
    };
    const root = solveNode(new Set());
    if (!root) return { status: 'infeasible', nodes: 1, rounds };
    // Input the pools cannot carry on to tokenOut (left at a token even with loops allowed): no exact-input route.
    if (unspentOf(root) > UNSPENT) return { status: 'capped', upper: root.upper / scale.get(tokenOut), nodes: 1, rounds, unspent: unspentOf(root) };
    const open = [{ set: new Set(), req: [], sol: root }];
    const seen = new Set(['']);
    let nodes = 1;
    let result;
    let unconverged = !!root.unconverged;
    while (open.length) {
      open.sort((a, b) => b.sol.upper - a.sol.upper);
      const node = open.shift();
      const arcs = arcsIn(node.sol.v);
      const cycle = shortestCycle(arcs);
      if (!cycle) {
        result = { node, replay: replayFlow(edges, node.sol.v, arcs, sIn, tokenIn, tokenOut, amount) };
        break;
      }
      if (nodes >= maxNodes) {
        open.unshift(node);
        break;
      }
      // The children partition the node's loop-free flows: every one lacks some arc of the cycle that the node does
      // not require; child k takes those whose first such lacking arc is the k-th, so it forbids that arc and
      // requires the ones before it, and then forbids every arc that would close a cycle with its required arcs.
      const free = cycle.map((t, k) => `${t}>${cycle[(k + 1) % cycle.length]}`).filter((arc) => !node.req.includes(arc));
      for (let k = 0; k < free.length; k++) {
        const req = [...node.req, ...free.slice(0, k)];
        const set = closeForbidden(new Set([...node.set, free[k]]), req, arcsOf);
        if (!set) continue; // the required arcs hold a cycle: no loop-free flow here
        const key = `${[...set].sort().join()}|${[...req].sort().join()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        nodes++;
        const sol = solveNode(set);
        if (!sol) continue;
        unconverged ||= !!sol.unconverged;
        open.push({ set, req, sol });
      }
    }
    if (!result) {
      // Out of nodes: the best loop-free flow seen so far is unknown; the open nodes bound the optimum.
      return { status: 'unfinished', upper: Math.max(...open.map((n) => n.sol.upper)) / scale.get(tokenOut), nodes, rounds, certified: false };
    }
    const upper = result.node.sol.upper / scale.get(tokenOut);
    const unspent = unspentOf(result.node.sol);
    const arcs = arcsIn(result.node.sol.v);
    return {
      status: unspent > UNSPENT || result.replay.clamped ? 'capped' : 'optimal',
      upper,
      lower: result.replay.out,
      gap: upper / result.replay.out - 1,
      nodes,
      rounds,
      certified: !unconverged,
      splits: !isOnePath(arcsIn(result.node.sol.v, SPLIT_FLOW * input), tokenIn, tokenOut),
      arcs: [...arcs].flatMap(([from, tos]) => [...tos].map((to) => [from, to])),
      unspent,
    };
  } finally {
    model.dispose();
  }
}

/**
 * Runs the solver to an optimal or infeasible end: a run that ends otherwise (a warm start the simplex could
 * not finish from, or a numerical failure) runs again from scratch, then without presolve, then by the
 * interior-point method with crossover. Returns the last model status.
 */
function runModel(highs, model) {
  const { optimal, infeasible } = highs.constants.modelStatus;
  const attempt = () => {
    try {
      model.run();
      return model.getModelStatus();
    } catch {
      return undefined;
    }
  };
  let status = attempt();
  for (const options of [{}, { presolve: 'off' }, { solver: 'ipm', run_crossover: 'on' }]) {
    if (status === optimal || status === infeasible) break;
    model.options.set(options);
    model.clearSolver();
    status = attempt();
    model.options.set({ presolve: 'choose', solver: 'choose' });
  }
  return status;
}

/** Whether the arcs form one token path from tokenIn to tokenOut. */
function isOnePath(arcs, tokenIn, tokenOut) {
  let here = tokenIn;
  let count = 0;
  const total = [...arcs.values()].reduce((s, tos) => s + tos.size, 0);
  while (here !== tokenOut) {
    const tos = arcs.get(here);
    if (!tos || tos.size !== 1) return false;
    here = [...tos][0];
    if (++count > total) return false;
  }
  return count === total;
}

/**
 * The forbidden arcs `set` with every arc of the graph (`arcsOf`'s keys, "from>to") that would close a cycle with the
 * required arcs `req` (its head reaches its tail through them) added; undefined when the required arcs hold a cycle.
 */
function closeForbidden(set, req, arcsOf) {
  if (req.length === 0) return set;
  const next = new Map();
  for (const arc of req) {
    const [from, to] = arc.split('>');
    if (!next.has(from)) next.set(from, []);
    next.get(from).push(to);
  }
  const reach = new Map(); // token -> the tokens the required arcs lead to from it
  const reachOf = (t) => {
    if (reach.has(t)) return reach.get(t);
    const seen = new Set();
    const stack = [...(next.get(t) ?? [])];
    while (stack.length) {
      const u = stack.pop();
      if (seen.has(u)) continue;
      seen.add(u);
      stack.push(...(next.get(u) ?? []));
    }
    reach.set(t, seen);
    return seen;
  };
  for (const from of next.keys()) if (reachOf(from).has(from)) return undefined;
  const out = new Set(set);
  for (const arc of arcsOf.keys()) {
    const [from, to] = arc.split('>');
    if (next.has(to) && reachOf(to).has(from)) out.add(arc);
  }
  return out;
}

/** A shortest cycle of the token graph (breadth-first from each arc's head back to its tail), or undefined. */
function shortestCycle(arcs) {
  let best;
  for (const [from, tos] of arcs) {
    for (const to of tos) {
      // Shortest path to -> from.
      const prev = new Map([[to, undefined]]);
      const queue = [to];
      while (queue.length && !prev.has(from)) {
        const u = queue.shift();
        for (const w of arcs.get(u) ?? []) {
          if (prev.has(w)) continue;
          prev.set(w, u);
          queue.push(w);
        }
      }
      if (!prev.has(from)) continue;
      const path = [];
      for (let u = from; u !== undefined; u = prev.get(u)) path.unshift(u);
      // path: to ... from; the cycle is from -> to -> ... -> from.
      const cycle = [from, ...path.slice(0, -1)];
      if (!best || cycle.length < best.length) best = cycle;
      if (best.length === 2) return best;
    }
  }
  return best;
}

/**
 * A real route from a loop-free flow: tokens in topological order, each token's outgoing inputs scaled to what
 * it really received (the true outputs of the sides into it; tokenIn: the trade's amount), then carried through
 * the true functions (a side's input clamped to its cap). Returns { out } in tokenOut base units and whether a
 * side's cap cut what its token received (`clamped`).
 */
function replayFlow(edges, v, arcs, sIn, tokenIn, tokenOut, amount) {
  const indegree = new Map();
  for (const [from, tos] of arcs) {
    if (!indegree.has(from)) indegree.set(from, 0);
    for (const to of tos) indegree.set(to, (indegree.get(to) ?? 0) + 1);
  }
  const order = [];
  const queue = [...indegree].filter(([, d]) => d === 0).map(([t]) => t);
  while (queue.length) {
    const t = queue.shift();
    order.push(t);
    for (const to of arcs.get(t) ?? []) {
      indegree.set(to, indegree.get(to) - 1);
      if (indegree.get(to) === 0) queue.push(to);
    }
  }
  // Flows below ARC_FLOW are carried too where they go forward in that order (the rest is dropped).
  const rank = new Map(order.map((t, k) => [t, k]));
  for (const e of edges) for (const t of [e.from, e.to]) if (!rank.has(t)) rank.set(t, rank.size);
  const used = [];
  for (let i = 0; i < edges.length; i++) if (v[2 * i] > 0 && rank.get(edges[i].from) < rank.get(edges[i].to)) used.push(i);
  const received = new Map([[tokenIn, amount]]);
  let out = 0;
  let clamped = false;
  for (const t of [...rank.keys()]) {
    if (t === tokenOut) continue;
    const outgoing = used.filter((i) => edges[i].from === t);
    const planned = outgoing.reduce((s, i) => s + v[2 * i] / sIn[i], 0);
    const have = received.get(t) ?? 0;
    if (!(planned > 0)) continue;
    const factor = have / planned;
    for (const i of outgoing) {
      const side = edges[i].side;
      const x = Math.min((v[2 * i] / sIn[i]) * factor, side.cap);
      const y = side.out(x);
      if (x < (v[2 * i] / sIn[i]) * factor * (1 - 1e-9)) clamped = true;
      if (edges[i].to === tokenOut) out += y;
      else received.set(edges[i].to, (received.get(edges[i].to) ?? 0) + y);
    }
  }
  return { out, clamped };
}
