/**
 * The engine's answer, shaped for `GET /v2/route` and for RouterV2's `executeSwaps(tokens, amountIn, ...,
 * hopSwaps, ...)`: `Route.stages` is what RouterV2 and the answer's `execution.details` call `hopSwaps`.
 *
 * A linear route: the token path, per hop its parallel swaps with their quoted amounts. Within a hop the quoted
 * inputs add up to the hop's input (the previous hop's output), so RouterV2's proportional split
 * (floor(actual * quoted / total), the last swap taking the remainder) gives every swap exactly its quoted input
 * when the previous hop pays what was quoted.
 *
 * A route split across token paths (`split: true`): `tokens` is tokenIn, the intermediate tokens in the order the
 * stages first produce them (stage by stage, swap by swap), tokenOut; `stages` holds them. A stage's swaps may trade different token pairs;
 * each token is spent whole in one stage, after every stage that pays it, its swaps' quoted inputs adding up to
 * what the earlier stages' quoted outputs (or the route's input) give of it, so RouterV2's split of what it holds
 * of each token (`router-replay.ts`) again gives every swap its quoted input. A linear route is the case of one
 * token pair per stage, the stages chaining.
 */
import type { Leg } from '../pools/legs';
import type { HopSplit } from '../search/hop-split';
import type { PoolKind } from '../pools/pool-snapshot';
import { poolModule } from '../pools/registry';
import { hopPriceImpact, routePriceImpact, stagePriceImpacts, swapPriceImpact } from './price-impact';

export interface HopSwap {
  /** The pool and direction the swap trades: what prices it again at execution. */
  readonly leg: Leg;
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** The pool's identity in the graph: its address, or its id inside `routerPool` (a Uniswap V4 PoolId). */
  readonly poolAddress: string;
  /** The contract RouterV2's `Swap.pool` names: the pool, or the contract holding it (a V4 PoolManager). */
  readonly routerPool: string;
  readonly routerIndex: number;
  readonly routerName?: string;
  readonly kind: PoolKind;
  /**
   * The pool's fee in its own units (`PoolModule.fee`): basis points for V2, stable and launchpad pools, pips for
   * `uniswap-v3` and `algebra` pools; absent for core pools (dynamic fee).
   */
  readonly fee?: number;
  readonly stable: boolean;
  /** RouterV2's `Swap.data` for the pool: empty but for a V4 pool (its key). */
  readonly data: `0x${string}`;
  /** The pool's hook contract, for a kind whose pools have one (Uniswap V4). */
  readonly hooks?: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** Fraction, see `price-impact.ts`. */
  readonly priceImpact: number;
}

export interface Route {
  /** Token addresses of the path (as the snapshot spells them), tokenIn first. */
  readonly tokens: readonly string[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** The stages RouterV2 executes in order, each its swaps (a linear route's stages are its hops). */
  readonly stages: readonly (readonly HopSwap[])[];
  /** Per hop, the impact of its swaps together. */
  readonly hopPriceImpacts: readonly number[];
  /** The route's overall impact (hops compounded), fraction. */
  readonly averagePriceImpact: number;
  /** For exact-output routes: the output asked for (amountOut is at least this). */
  readonly requestedAmountOut?: bigint;
  /** The route splits across token paths: stages are not hops (see the module note). */
  readonly split?: true;
}

function hopSwap(leg: Leg, amountIn: bigint, amountOut: bigint): HopSwap {
  const pool = leg.pool;
  const kind = poolModule(pool);
  const fee = kind.fee(pool);
  const target = kind.routerSwap?.(pool);
  return {
    leg,
    tokenIn: leg.tokenIn,
    tokenOut: leg.tokenOut,
    poolAddress: pool.address,
    routerPool: target?.pool ?? pool.address,
    routerIndex: pool.routerIndex,
    ...(pool.routerName !== undefined ? { routerName: pool.routerName } : {}),
    kind: pool.kind,
    ...(fee !== undefined ? { fee } : {}),
    stable: kind.stable,
    data: target?.data ?? '0x',
    ...(target?.hooks !== undefined ? { hooks: target.hooks } : {}),
    amountIn,
    amountOut,
    priceImpact: swapPriceImpact(leg, amountIn, amountOut),
  };
}

/** Assembles a route from its hops' exact splits (hop i's input is hop i-1's output). */
export function assembleRoute(hops: readonly HopSplit[], requestedAmountOut?: bigint): Route {
  const tokens = [hops[0].legs[0].tokenIn, ...hops.map((h) => h.legs[0].tokenOut)];
  const stages = hops.map((h) => h.legs.map((leg, j) => hopSwap(leg, h.amountsIn[j], h.amountsOut[j])));
  const hopPriceImpacts = hops.map((h) => hopPriceImpact(h.legs, h.amountsIn, h.amountsOut));
  return {
    tokens,
    amountIn: hops[0].amountIn,
    amountOut: hops[hops.length - 1].amountOut,
    stages,
    hopPriceImpacts,
    averagePriceImpact: routePriceImpact(hopPriceImpacts),
    ...(requestedAmountOut !== undefined ? { requestedAmountOut } : {}),
  };
}

/** One swap of a stage: its leg and exact amounts. */
export interface StagedSwap {
  readonly leg: Leg;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

const lowerCase = (t: string): string => t.toLowerCase();

/** Whether the stages are a linear route's hops: one token pair per stage, chaining from tokenIn to tokenOut. */
export function stagesAreLinear(tokenIn: string, tokenOut: string, stages: readonly (readonly StagedSwap[])[]): boolean {
  let at = lowerCase(tokenIn);
  for (const stage of stages) {
    if (stage.length === 0) return false;
    const to = lowerCase(stage[0].leg.tokenOut);
    for (const s of stage) if (lowerCase(s.leg.tokenIn) !== at || lowerCase(s.leg.tokenOut) !== to) return false;
    at = to;
  }
  return at === lowerCase(tokenOut);
}

/**
 * Assembles a route from its stages (each swap's exact amounts as RouterV2 executes them): a linear route when the
 * stages are hops (`stagesAreLinear`, as `assembleRoute` gives it), else a split route whose tokens are tokenIn,
 * the intermediate tokens in the order the stages first produce them (stage by stage, swap by swap), tokenOut:
 * RouterV2's token list of the call.
 */
export function assembleStages(tokenIn: string, tokenOut: string, stages: readonly (readonly StagedSwap[])[], requestedAmountOut?: bigint): Route {
  if (stagesAreLinear(tokenIn, tokenOut, stages)) {
    return assembleRoute(
      stages.map((stage) => ({
        legs: stage.map((s) => s.leg),
        amountsIn: stage.map((s) => s.amountIn),
        amountsOut: stage.map((s) => s.amountOut),
        amountIn: stage.reduce((a, s) => a + s.amountIn, 0n),
        amountOut: stage.reduce((a, s) => a + s.amountOut, 0n),
      })),
      requestedAmountOut,
    );
  }
  const first = stages[0][0].leg;
  const spell = (t: string, leg: Leg) => (lowerCase(leg.tokenIn) === lowerCase(t) ? leg.tokenIn : leg.tokenOut);
  const tokens: string[] = [spell(tokenIn, first)];
  const seen = new Set<string>([lowerCase(tokenIn), lowerCase(tokenOut)]);
  let outSpelling = tokenOut;
  for (const stage of stages) {
    for (const s of stage) {
      const t = lowerCase(s.leg.tokenOut);
      if (!seen.has(t)) {
        seen.add(t);
        tokens.push(s.leg.tokenOut);
      }
      if (t === lowerCase(tokenOut)) outSpelling = s.leg.tokenOut;
    }
  }
  tokens.push(outSpelling);
  const { stageImpacts, averagePriceImpact } = stagePriceImpacts(stages, tokenIn, tokenOut);
  let amountIn = 0n;
  let amountOut = 0n;
  for (const stage of stages)
    for (const s of stage) {
      if (lowerCase(s.leg.tokenIn) === lowerCase(tokenIn)) amountIn += s.amountIn;
      if (lowerCase(s.leg.tokenOut) === lowerCase(tokenOut)) amountOut += s.amountOut;
    }
  return {
    tokens,
    amountIn,
    amountOut,
    stages: stages.map((stage) => stage.map((s) => hopSwap(s.leg, s.amountIn, s.amountOut))),
    hopPriceImpacts: stageImpacts,
    averagePriceImpact,
    ...(requestedAmountOut !== undefined ? { requestedAmountOut } : {}),
    split: true,
  };
}
