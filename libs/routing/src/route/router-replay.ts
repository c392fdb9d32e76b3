/**
 * RouterV2's execution of a route, replayed stage by stage. A route's swaps come in stages (a linear route's
 * stages are its hops); the router holds, for the call, the input and what earlier stages paid. In a stage, the
 * swaps on one token in take what the router holds of that token, shared in proportion to their quoted inputs
 * (floor, the last of them in array order taking the remainder), so the token is spent entirely in that stage;
 * each swap's output adds to what the router holds of its token out. The route ends holding only its output
 * token. The engine prices the swaps with its legs' exact quotes (`simulateRouter`, `quoteStages`); the service
 * replays a found route at its block, some swaps priced by the pools themselves (`replayStagesAsync`).
 */

/** An actual amount split as RouterV2 splits it; undefined when the quoted inputs add up to nothing. */
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

/** What the replay needs of a swap: its tokens and its quoted input. */
export interface StageSwapShape {
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly amountIn: bigint;
}

/** One stage as executed: each swap's share and output, in the stage's order, and their sums. */
export interface ExecutedStage {
  readonly amountIn: bigint;
  readonly amountsIn: readonly bigint[];
  readonly amountsOut: readonly bigint[];
  readonly amountOut: bigint;
}

/** The outputs of stage `stage`'s swaps for their shares, in order; undefined when the stage would not execute. */
export type StageQuote = (stage: number, amountsIn: readonly bigint[]) => readonly bigint[] | undefined;
export type AsyncStageQuote = (stage: number, amountsIn: readonly bigint[]) => Promise<readonly bigint[] | undefined>;

/** A replay's result: each stage as executed and the output, what the router holds of the route's last token. */
export interface ExecutedRoute {
  readonly stages: ExecutedStage[];
  readonly amountOut: bigint;
}

interface StageShares {
  readonly stage: number;
  readonly amountsIn: readonly bigint[];
}

const key = (token: string): string => token.toLowerCase();

/**
 * The replay: yields each stage's shares, is given back their outputs; undefined when a stage does not execute,
 * a stage spends a token it holds none of with nothing quoted, or the route would end holding anything but its
 * output token.
 */
function* replay(
  stages: readonly (readonly StageSwapShape[])[],
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
): Generator<StageShares, ExecutedRoute | undefined, readonly bigint[] | undefined> {
  const held = new Map<string, bigint>([[key(tokenIn), amountIn]]);
  const executed: ExecutedStage[] = [];
  for (let stage = 0; stage < stages.length; stage++) {
    const swaps = stages[stage];
    const amountsIn: bigint[] = new Array<bigint>(swaps.length).fill(0n);
    // The swaps of each token in, in array order.
    const groups = new Map<string, number[]>();
    swaps.forEach((s, j) => {
      const t = key(s.tokenIn);
      let group = groups.get(t);
      if (!group) groups.set(t, (group = []));
      group.push(j);
    });
    for (const [token, group] of groups) {
      const shares = proportionalShares(
        held.get(token) ?? 0n,
        group.map((j) => swaps[j].amountIn),
      );
      if (!shares) return undefined;
      group.forEach((j, k) => (amountsIn[j] = shares[k]));
      held.set(token, 0n);
    }
    const amountsOut = yield { stage, amountsIn };
    if (!amountsOut) return undefined;
    swaps.forEach((s, j) => held.set(key(s.tokenOut), (held.get(key(s.tokenOut)) ?? 0n) + amountsOut[j]));
    const sum = (xs: readonly bigint[]) => xs.reduce((a, b) => a + b, 0n);
    executed.push({ amountIn: sum(amountsIn), amountsIn, amountsOut, amountOut: sum(amountsOut) });
  }
  const out = key(tokenOut);
  for (const [token, amount] of held) if (token !== out && amount !== 0n) return undefined;
  return { stages: executed, amountOut: held.get(out) ?? 0n };
}

/**
 * The stages as RouterV2 executes them for `amountIn` of `tokenIn` (the route's first token; `tokenOut` its last),
 * given each swap's tokens and quoted input and the quote of a stage's shares; undefined when a stage does not
 * execute.
 */
export function replayStages(stages: readonly (readonly StageSwapShape[])[], tokenIn: string, tokenOut: string, amountIn: bigint, quote: StageQuote): ExecutedRoute | undefined {
  const steps = replay(stages, tokenIn, tokenOut, amountIn);
  let step = steps.next();
  while (!step.done) step = steps.next(quote(step.value.stage, step.value.amountsIn));
  return step.value;
}

/** `replayStages` with a quote that answers later (a stage's swaps priced on chain). */
export async function replayStagesAsync(
  stages: readonly (readonly StageSwapShape[])[],
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  quote: AsyncStageQuote,
): Promise<ExecutedRoute | undefined> {
  const steps = replay(stages, tokenIn, tokenOut, amountIn);
  let step = steps.next();
  while (!step.done) step = steps.next(await quote(step.value.stage, step.value.amountsIn));
  return step.value;
}
