/**
 * Where aggregator-router's route searches run: on worker threads (`search-worker.ts`, `ROUTE_SEARCH_WORKERS`, 1 by
 * default) that keep each chain's graphs of its last routing views, which this thread builds, so that a
 * long search (an exact output through many pools takes tens of milliseconds under load) and the garbage it leaves
 * do not hold up the requests around it on this thread (their re-quotes, calldata, replies) nor the liquidity
 * state. A search names the view its request was resolved on (a block's view is built again when its core samples
 * come in); the route comes back as the engine assembled it, without its legs, which are looked up on this thread's
 * graph of that view: the same route as a search here gives (`route-searcher.spec.ts`).
 *
 * The workers run where their compiled script sits beside this module (the built app); with
 * `ROUTE_SEARCH_WORKERS=0`, or without the script (the sources run as TypeScript, in unit tests), searches run on this
 * thread. A search of a view a worker does not hold, or one under way when its worker stops, runs here; a worker
 * that stops is started again with every chain's current view, unless it stopped as it started.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ChainGraph, Route } from '@dex/routing';
import { Logger } from '@nestjs/common';
import type { LiquiditySnapshot } from '../liquidity/liquidity.service';
import type { RouteOrder } from './route-request';
import { noRouteFound, searchRoute } from './route-quote';
import type { FoundRoute, SearchMessage, SearchReply, ViewMessage } from './route-search.protocol';

/**
 * The route the worker found and assembled, on `graph` (the same view's): each swap's leg looked up by pool and
 * direction; nothing else is computed again.
 */
export function routeOnGraph(graph: ChainGraph, found: FoundRoute): Route {
  const stages = found.stages.map((stage) =>
    stage.map((s) => {
      const address = s.poolAddress.toLowerCase();
      const leg = graph.legs
        .get(s.tokenIn.toLowerCase())
        ?.get(s.tokenOut.toLowerCase())
        ?.find((l) => l.pool.routerIndex === s.routerIndex && l.pool.address.toLowerCase() === address);
      if (!leg) throw new Error(`the route's pool ${s.poolAddress} (${s.tokenIn} -> ${s.tokenOut}) is not in the graph of block ${graph.blockNumber}`);
      return { leg, ...s };
    }),
  );
  return { ...found, stages };
}

/** The compiled worker script beside this module, if it is there (not where the sources run as TypeScript). */
export function searchWorkerScript(): string | undefined {
  const script = join(__dirname, 'search-worker.js');
  return existsSync(script) ? script : undefined;
}

/** A worker that stops sooner than this after its start is not started again. */
const RESTART_AFTER_MS = 5_000;

/** A view as the workers know it: numbered in the order they were built. */
interface NumberedView {
  readonly view: LiquiditySnapshot;
  readonly number: number;
}

interface Pending {
  readonly graph: ChainGraph;
  readonly order: RouteOrder;
  readonly resolve: (route: Route) => void;
  readonly reject: (err: unknown) => void;
}

/** One worker thread: the chains' views it has had, its searches under way. */
class SearchThread {
  private worker?: Worker;
  /** Each start of the worker; a chain's next view goes whole to a worker that has not had one. */
  private generation = 0;
  private readonly sent = new Map<number, number>();
  readonly pending = new Map<number, Pending>();
  /** The worker stopped as it started: not started again. */
  private failed = false;

  constructor(
    private readonly script: string,
    private readonly searcher: { readonly views: ReadonlyMap<number, NumberedView>; readonly closed: boolean; readonly logger: Logger },
  ) {}

  /** Whether the worker holds the chain's views (its searches can run there). */
  holds(chainId: number): boolean {
    return this.worker !== undefined && this.sent.get(chainId) === this.generation;
  }

  publish(chainId: number, { view, number }: NumberedView): void {
    if (this.failed) return;
    const worker = this.start();
    const whole = view.change.whole || this.sent.get(chainId) !== this.generation;
    const { blockNumber } = view;
    const message: ViewMessage = whole
      ? { type: 'view', chainId, view: number, blockNumber, whole: true, pools: view.pools, removed: [], added: [] }
      : { type: 'view', chainId, view: number, blockNumber, whole: false, removed: view.change.removed, added: view.change.added };
    try {
      worker.postMessage(message);
      this.sent.set(chainId, this.generation);
    } catch (err) {
      // A view that cannot be sent (it should not happen: snapshots are plain data): the chain's searches run on
      // the request thread until a whole view goes through.
      this.sent.delete(chainId);
      this.searcher.logger.error({ msg: 'route view not sent to the search worker', chainId, err: String(err) });
    }
  }

  search(message: SearchMessage, pending: Pending): void {
    this.pending.set(message.id, pending);
    this.worker!.postMessage(message);
  }

  stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
    searchHere(this.pending);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    this.generation++;
    this.worker = worker;
    worker.on('message', (reply: SearchReply) => answer(this.pending, reply));
    worker.on('error', (err) => this.searcher.logger.error({ msg: 'route search worker failed', err: String(err) }));
    const started = Date.now();
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      searchHere(this.pending);
      if (this.searcher.closed) return;
      // One that stops as it starts (it cannot load) would stop again: the searches stay on this thread.
      if (Date.now() - started < RESTART_AFTER_MS) {
        this.failed = true;
        this.searcher.logger.error({ msg: 'route search worker stopped as it started; searching on the request thread', code });
        return;
      }
      this.searcher.logger.warn({ msg: 'route search worker stopped; starting it again', code });
      for (const [chainId, numbered] of this.searcher.views) this.publish(chainId, numbered);
    });
    // The worker must not keep the process alive on its own.
    worker.unref();
    return worker;
  }
}

/** A worker's answer to its search. */
function answer(pending: Map<number, Pending>, reply: SearchReply): void {
  const asked = pending.get(reply.id);
  if (!asked) return;
  pending.delete(reply.id);
  const { graph, order, resolve, reject } = asked;
  try {
    if ('route' in reply) resolve(routeOnGraph(graph, reply.route));
    else if ('noRoute' in reply) reject(noRouteFound(order));
    else if ('missing' in reply) resolve(searchRoute(graph, order));
    else reject(new Error(`route search failed: ${reply.error}`));
  } catch (err) {
    reject(err);
  }
}

/** The searches under way on a worker that stopped, run here. */
function searchHere(pending: Map<number, Pending>): void {
  const left = [...pending.values()];
  pending.clear();
  for (const { graph, order, resolve, reject } of left) {
    try {
      resolve(searchRoute(graph, order));
    } catch (err) {
      reject(err);
    }
  }
}

/**
 * The route searches of the service: on `threads` worker threads running `script` (each search on the one with the
 * fewest under way), or on this thread without a script or with none.
 */
export class RouteSearcher {
  readonly logger = new Logger('RouteSearcher');
  /** Each chain's newest view, for a worker started again. */
  readonly views = new Map<number, NumberedView>();
  closed = false;
  private readonly threads: SearchThread[];
  /** The number each view published has (a search names the view its request was resolved on). */
  private readonly numbers = new WeakMap<LiquiditySnapshot, number>();
  private nextView = 1;
  private nextId = 1;

  constructor(script: string | undefined, threads = 1) {
    this.threads = script === undefined ? [] : Array.from({ length: threads }, () => new SearchThread(script, this));
  }

  /** Whether searches run on worker threads. */
  get onWorker(): boolean {
    return this.threads.length > 0 && !this.closed;
  }

  /** A chain's new routing view: each worker builds the same graph (patched, or whole when it has not had the chain's last). */
  publish(chainId: number, view: LiquiditySnapshot): void {
    const numbered = { view, number: this.nextView++ };
    this.numbers.set(view, numbered.number);
    this.views.set(chainId, numbered);
    if (!this.onWorker) return;
    for (const thread of this.threads) thread.publish(chainId, numbered);
  }

  /** The engine's route for the order on the snapshot's graph (a 404 `BusError` when there is none). */
  search(chainId: number, snapshot: LiquiditySnapshot, order: RouteOrder): Promise<Route> {
    let thread: SearchThread | undefined;
    const view = this.numbers.get(snapshot);
    if (this.onWorker && view !== undefined) for (const t of this.threads) if (t.holds(chainId) && (!thread || t.pending.size < thread.pending.size)) thread = t;
    if (!thread || view === undefined) return Promise.resolve().then(() => searchRoute(snapshot.graph, order));
    const { tokenIn, tokenOut, amount, multiHop, maxSwaps, filter, gasValue } = order;
    const message: SearchMessage = {
      type: 'search',
      id: this.nextId++,
      chainId,
      view,
      request: { tokenIn, tokenOut, ...amount, multiHop, maxSwaps, filter, gasValue: gasValue ?? 0 },
    };
    const chosen = thread;
    return new Promise<Route>((resolve, reject) => chosen.search(message, { graph: snapshot.graph, order, resolve, reject }));
  }

  close(): void {
    this.closed = true;
    for (const thread of this.threads) thread.stop();
  }
}
