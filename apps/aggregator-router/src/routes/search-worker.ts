/**
 * aggregator-router's route-search worker thread: it keeps each chain's route graph for the last views, built from
 * the routing views the main thread builds (the same pool snapshots, so the same legs and the same routes), and
 * answers searches on them (`findRoute`). The main thread keeps answering everything else meanwhile: re-quotes,
 * calldata, replies, the liquidity state; a long search, and the garbage it leaves, no longer hold them up.
 */
import { parentPort } from 'node:worker_threads';
import { findRoute, GraphKeeper, legsOf, NoRouteError, type ChainGraph, type PoolSnapshot } from '@dex/routing';
import { foundRoute, type SearchMessage, type SearchReply, type ViewMessage, type WorkerRequest } from './route-search.protocol';

/** Views whose graphs a chain keeps: a request resolved on a view searches it even once newer ones arrive. */
export const GRAPHS_KEPT = 8;

/** A chain's graphs by view, kept (`GraphKeeper`) from the views the main thread sends. */
export class ChainGraphs {
  private readonly keeper: GraphKeeper;
  private readonly graphs = new Map<number, ChainGraph>();

  constructor(readonly chainId: number) {
    this.keeper = new GraphKeeper(chainId);
  }

  apply(view: ViewMessage): void {
    const withLegs = (pool: PoolSnapshot) => ({ pool, legs: legsOf(pool) });
    const graph =
      view.whole || !this.keeper.graph
        ? this.keeper.apply({ blockNumber: view.blockNumber, whole: true, pools: (view.pools ?? []).map(withLegs) })
        : this.keeper.apply({ blockNumber: view.blockNumber, whole: false, removed: view.removed, added: view.added.map(withLegs) });
    this.graphs.set(view.view, graph);
    for (const kept of this.graphs.keys()) if (this.graphs.size > GRAPHS_KEPT && kept !== view.view) this.graphs.delete(kept);
  }

  at(view: number): ChainGraph | undefined {
    return this.graphs.get(view);
  }
}

/** Answers one message: a view is applied (no answer), a search answered. */
export function handle(chains: Map<number, ChainGraphs>, message: WorkerRequest): SearchReply | undefined {
  if (message.type === 'view') {
    let chain = chains.get(message.chainId);
    if (!chain) chains.set(message.chainId, (chain = new ChainGraphs(message.chainId)));
    chain.apply(message);
    return undefined;
  }
  return search(chains, message);
}

function search(chains: Map<number, ChainGraphs>, { id, chainId, view, request }: SearchMessage): SearchReply {
  const graph = chains.get(chainId)?.at(view);
  if (!graph) return { id, missing: true };
  try {
    const { amountIn, amountOut, ...rest } = request;
    const route = findRoute(graph, amountIn !== undefined ? { ...rest, amountIn } : { ...rest, amountOut: amountOut! });
    return { id, route: foundRoute(route) };
  } catch (err) {
    if (err instanceof NoRouteError) return { id, noRoute: true };
    return { id, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

if (parentPort) {
  const port = parentPort;
  const chains = new Map<number, ChainGraphs>();
  port.on('message', (message: WorkerRequest) => {
    const reply = handle(chains, message);
    if (reply) port.postMessage(reply);
  });
}
