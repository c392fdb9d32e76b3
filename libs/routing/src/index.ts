// The routing engine's public surface. The pipeline behind it (docs/routing.md): pools/ (each kind's snapshot,
// maths, legs and gas) -> graph/ (a chain's legs) -> search/ (candidate paths, their quotes and splits) ->
// optimum/ (the convex optimum across paths, rounded to stages) -> route/ (the answer, its replay, impact and gas),
// with find/ choosing among them for one request.

// A request and its answer.
export { findRoute, NoRouteError, type RouteRequest } from './find/find-route';
export type { HopSwap, Route } from './route/route';
export { assembleRoute, assembleStages } from './route/route';
export { replayStagesAsync } from './route/router-replay';
export { hopPriceImpact, routePriceImpact, stagePriceImpacts, swapPriceImpact } from './route/price-impact';
export { bestPathRate } from './optimum/optimum-setup';
export { maxSwapsWithinGas } from './search/search-options';

// A chain's graph.
export { buildGraph, patchGraph, poolKey, type ChainGraph, type PoolLegs, type SourceFilter } from './graph/chain-graph';
export { GraphKeeper, type GraphChange } from './graph/graph-keeper';

// Gas of a route (calibrated by bench/gas-model).
export {
  AVERAGE_TICKS_CROSSED,
  calldataGas,
  NEW_ACCOUNT_GAS,
  NEW_TOKEN_HOLDER_GAS,
  ROUTER_GAS,
  routeBaseGas,
  routeGas,
  shapeGas,
  SWAP_GAS_BY_KIND,
  swapGas,
  TICK_GAS,
  TICK_WORD_GAS,
  TX_BASE_GAS,
} from './route/gas-model';

// Pools: the snapshot the service fills, the registry of kinds, and each kind's maths the services share.
export type { RoutingSnapshot } from './pools/pool-snapshot';
export type {
  AlgebraPoolSnapshot,
  CorePoolSnapshot,
  CurveStableswapNGPairSnapshot,
  CurveTwocryptoNGPairSnapshot,
  LaunchpadPoolSnapshot,
  PoolKind,
  PoolSnapshot,
  StablePoolSnapshot,
  UniswapV2PoolSnapshot,
  UniswapV3PoolSnapshot,
  UniswapV4PoolSnapshot,
} from './pools/registry';
export { KINDS_TRADING_WHAT_ARRIVES, poolModule, tradesWhatArrives, transfersTokens } from './pools/registry';
export { legsOf, type Leg } from './pools/legs';
export { getAmountOut } from './pools/uniswap-v2/constant-product';
export { geometricLadder, type QuoteSample } from './pools/core/core-samples';
export { CURVE_EXCHANGE_DATA, CURVE_LADDER_REFINE, CURVE_LADDER_SIZE, curveSampleLadder, refineSampleLadder, type CurvePairSnapshotBase } from './pools/curve/curve';
export { getSqrtRatioAtTick, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './pools/concentrated/tick-math';
export { type ConcentratedPoolState, type TickLiquidity, TickTable } from './pools/concentrated/tick-table';
export { swapAlgebra, swapUniswapV3, type SwapResult } from './pools/concentrated/concentrated-math';
export { ConcentratedLeg, stateOf } from './pools/concentrated/concentrated-leg';
export { MAX_LP_FEE, swapUniswapV4 } from './pools/uniswap-v4/uniswap-v4-swap';
export {
  DYNAMIC_FEE_FLAG,
  encodeUniswapV4PoolKey,
  MAX_PROTOCOL_FEE,
  SWAP_HOOK_PERMISSIONS,
  swapHookPermissions,
  uniswapV4PoolKey,
  uniswapV4SampleLadder,
  uniswapV4SwapFee,
  uniswapV4TickLegs,
  UNISWAP_V4_LADDER_SIZE,
  type SwapHookPermission,
  type UniswapV4PoolKey,
  type UniswapV4Samples,
} from './pools/uniswap-v4/uniswap-v4';
export {
  CURVE_SALE_SUPPLY,
  curveFromReserves,
  GRADUATION_TOKEN_RESERVE,
  launchCurveStatus,
  LAUNCHPAD_FEE_BPS,
  VIRTUAL_NATIVE_LIQUIDITY,
  type CurveState,
  type LaunchCurveStatus,
} from './pools/launchpad/launchpad-curve';
export type { RouterSwapTarget } from './pools/pool-module';
