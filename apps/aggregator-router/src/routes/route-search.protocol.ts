/**
 * The messages between aggregator-router's main thread and its route-search worker (`search-worker.ts`), and the
 * form a route takes between them. Everything here crosses `postMessage` (structured clone): plain data, bigints.
 */
import type { HopSwap, PoolSnapshot, Route, SourceFilter } from '@dex/routing';

/**
 * A chain's routing view, as the worker needs it to build the same graph (see `RoutingView.change`). `view` numbers
 * it: a block's view is built again when the block's core samples come in, so a search names the view it was
 * resolved on, not its block.
 */
export interface ViewMessage {
  readonly type: 'view';
  readonly chainId: number;
  readonly view: number;
  readonly blockNumber: bigint;
  /** Built whole: `pools` are all of them. Else the previous block's graph less `removed` plus `added`. */
  readonly whole: boolean;
  readonly pools?: readonly PoolSnapshot[];
  readonly removed: readonly PoolSnapshot[];
  readonly added: readonly PoolSnapshot[];
}

/** A search on the graph of one of a chain's views: `findRoute`'s request. */
export interface SearchMessage {
  readonly type: 'search';
  readonly id: number;
  readonly chainId: number;
  readonly view: number;
  readonly request: {
    readonly tokenIn: string;
    readonly tokenOut: string;
    readonly amountIn?: bigint;
    readonly amountOut?: bigint;
    readonly multiHop: boolean;
    readonly maxSwaps?: number;
    readonly filter?: SourceFilter;
    readonly gasValue?: number;
  };
}

export type WorkerRequest = ViewMessage | SearchMessage;

/** One swap of a found route: the engine's swap without its leg (the pool, source and direction it trades name it). */
export type FoundSwap = Omit<HopSwap, 'leg'>;

/** A found route as the engine assembled it, each swap without its leg (found again on the request thread's graph). */
export type FoundRoute = Omit<Route, 'stages'> & { readonly stages: readonly (readonly FoundSwap[])[] };

/**
 * The answer to a search: the route; none (`noRoute`: the engine's NoRouteError); the worker does not hold the
 * view's graph (`missing`); or the error the search threw.
 */
export type SearchReply =
  | { readonly id: number; readonly route: FoundRoute }
  | { readonly id: number; readonly noRoute: true }
  | { readonly id: number; readonly missing: true }
  | { readonly id: number; readonly error: string };

/** The route as it crosses: each swap without its leg. */
export function foundRoute(route: Route): FoundRoute {
  return { ...route, stages: route.stages.map((stage) => stage.map(({ leg: _, ...swap }) => swap)) };
}
