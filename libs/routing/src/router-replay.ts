/**
 * RouterV2's execution of a route, replayed hop by hop: each hop's actual input (the route's input, then the
 * previous hop's actual output) is split across the hop's swaps in proportion to their quoted inputs (floor,
 * the last swap taking the remainder), and each share is priced by the caller's quote of the hop. The engine
 * prices with its legs' exact quotes (`simulateRouter`); the service replays a found route at its block, some
 * swaps priced by the pools themselves (`replayRouterAsync`).
 */

/** An actual hop input split as RouterV2 splits it; undefined when the quoted inputs add up to nothing. */
export function proportionalShares(amount: bigint, quotedIns: readonly bigint[]): bigint[] | undefined {
  const total = quotedIns.reduce((a, b) => a + b, 0n);
  if (total === 0n) return undefined;
  let remaining = amount;
  return quotedIns.map((quoted, j) => {
    const share = j === quotedIns.length - 1 ? remaining : (amount * quoted) / total;
    remaining -= share;
    return share;
  });
}

/** One hop as executed: its input, each swap's share of it and output, the hop's output. */
export interface ExecutedHop {
  readonly amountIn: bigint;
  readonly amountsIn: readonly bigint[];
  readonly amountsOut: readonly bigint[];
  readonly amountOut: bigint;
}

/** The outputs of hop `hop`'s swaps for their shares, in order; undefined when the hop would not execute. */
export type HopQuote = (hop: number, amountsIn: readonly bigint[]) => readonly bigint[] | undefined;
export type AsyncHopQuote = (hop: number, amountsIn: readonly bigint[]) => Promise<readonly bigint[] | undefined>;

interface HopShares {
  readonly hop: number;
  readonly amountsIn: readonly bigint[];
}

/** The replay: yields each hop's shares, is given back their outputs; undefined when a hop does not execute. */
function* replay(quotedIns: readonly (readonly bigint[])[], amountIn: bigint): Generator<HopShares, ExecutedHop[] | undefined, readonly bigint[] | undefined> {
  const hops: ExecutedHop[] = [];
  let amount = amountIn;
  for (let hop = 0; hop < quotedIns.length; hop++) {
    const amountsIn = proportionalShares(amount, quotedIns[hop]);
    if (!amountsIn) return undefined;
    const amountsOut = yield { hop, amountsIn };
    if (!amountsOut) return undefined;
    const amountOut = amountsOut.reduce((a, b) => a + b, 0n);
    hops.push({ amountIn: amount, amountsIn, amountsOut, amountOut });
    amount = amountOut;
  }
  return hops;
}

/**
 * The hops as RouterV2 executes them for `amountIn`, given each hop's quoted inputs (`quotedIns[h]`, per swap)
 * and the quote of a hop's shares; undefined when a hop does not execute.
 */
export function replayRouter(quotedIns: readonly (readonly bigint[])[], amountIn: bigint, quote: HopQuote): ExecutedHop[] | undefined {
  const steps = replay(quotedIns, amountIn);
  let step = steps.next();
  while (!step.done) step = steps.next(quote(step.value.hop, step.value.amountsIn));
  return step.value;
}

/** `replayRouter` with a quote that answers later (a hop's swaps priced on chain). */
export async function replayRouterAsync(quotedIns: readonly (readonly bigint[])[], amountIn: bigint, quote: AsyncHopQuote): Promise<ExecutedHop[] | undefined> {
  const steps = replay(quotedIns, amountIn);
  let step = steps.next();
  while (!step.done) step = steps.next(await quote(step.value.hop, step.value.amountsIn));
  return step.value;
}
