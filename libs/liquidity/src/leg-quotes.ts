/**
 * Remembered exact quotes of a leg. A leg's `quote` is a pure function of its pool's snapshot, which never changes
 * once built (a pool that changes gets new legs), and the route search asks the same leg for the same input many
 * times over: the candidate paths, the split across parallel pools, the exact replay of the route found, the
 * searches with fewer swaps net of gas, and exact output's input search share their inputs. On the devnet's
 * route mix about 60% of a request's quotes repeat one already made, each a concentrated pool's tick walk or a
 * stable pool's Newton solve; remembering them keeps every amount identical and saves that work.
 *
 * What is remembered lasts until the memory is renewed (`QuoteMemory.renew`: the routing view renews it at each
 * build, once a block or so), so the memory held is about one block's searches whatever the number of pools; a
 * leg also starts afresh past `capacity` inputs.
 */
import type { Leg } from '@dex/routing';

/** Quotes a leg remembers at most within a generation. */
export const LEG_QUOTES_REMEMBERED = 2_048;

/**
 * The quotes the legs remember, forgotten together at `renew` (the routing view renews it at each build, once a
 * block or so).
 */
export class QuoteMemory {
  /** The legs' memories that hold quotes. */
  private readonly filled = new Set<Map<bigint, bigint>>();

  /** Notes that `known` holds quotes now (the first one since the last renewal). */
  holds(known: Map<bigint, bigint>): void {
    this.filled.add(known);
  }

  /** Forgets every leg's quotes. */
  renew(): void {
    for (const known of this.filled) known.clear();
    this.filled.clear();
  }
}

/** The leg, its `quote` answering an input it was asked before since the memory's renewal from memory (the leg object itself is kept). */
export function rememberQuotes<L extends Leg>(leg: L, memory: QuoteMemory, capacity = LEG_QUOTES_REMEMBERED): L {
  const quote = leg.quote.bind(leg);
  const known = new Map<bigint, bigint>();
  leg.quote = (amountIn: bigint): bigint => {
    const seen = known.get(amountIn);
    if (seen !== undefined) return seen;
    const out = quote(amountIn);
    if (known.size >= capacity) known.clear();
    if (known.size === 0) memory.holds(known);
    known.set(amountIn, out);
    return out;
  };
  return leg;
}
