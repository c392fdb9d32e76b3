/**
 * Remembered exact quotes of a leg. A leg's `quote` is a pure function of its pool's snapshot, which never changes
 * once built (a pool that changes gets new legs), and the route search asks the same leg for the same input many
 * times over: the candidate paths, the split across parallel pools, the exact replay of the route found, the
 * searches with fewer swaps net of gas, and exact output's input search share their inputs. On the devnet's
 * route mix about 60% of a request's quotes repeat one already made, each a concentrated pool's tick walk or a
 * stable pool's Newton solve; remembering them keeps every amount identical and saves that work.
 */
import type { Leg } from '@dex/routing';

/** Quotes a leg remembers at most; past that it starts afresh (the next block's searches ask for other inputs). */
export const LEG_QUOTES_REMEMBERED = 2_048;

/** The leg, its `quote` answering an input it was asked before from memory (the leg object itself is kept). */
export function rememberQuotes<L extends Leg>(leg: L, capacity = LEG_QUOTES_REMEMBERED): L {
  const quote = leg.quote.bind(leg);
  const known = new Map<bigint, bigint>();
  leg.quote = (amountIn: bigint): bigint => {
    const seen = known.get(amountIn);
    if (seen !== undefined) return seen;
    const out = quote(amountIn);
    if (known.size >= capacity) known.clear();
    known.set(amountIn, out);
    return out;
  };
  return leg;
}
