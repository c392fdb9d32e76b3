import { proportionalShares, replayRouter, replayRouterAsync, type HopQuote } from './router-replay';

describe('proportionalShares', () => {
  it('splits in proportion to the quoted inputs, floor, the last swap taking the remainder', () => {
    expect(proportionalShares(100n, [50n, 30n, 20n])).toEqual([50n, 30n, 20n]);
    expect(proportionalShares(101n, [1n, 1n, 1n])).toEqual([33n, 33n, 35n]);
    expect(proportionalShares(7n, [2n, 1n])).toEqual([4n, 3n]);
    expect(proportionalShares(5n, [9n])).toEqual([5n]);
  });

  it('has no split when the quoted inputs add up to nothing', () => {
    expect(proportionalShares(5n, [0n, 0n])).toBeUndefined();
  });
});

describe('replayRouter', () => {
  // Hop 1 pays twice its shares, hop 2 a third of them (rounded down).
  const rates = [(x: bigint) => x * 2n, (x: bigint) => x / 3n];
  const quote: HopQuote = (hop, shares) => shares.map(rates[hop]);
  const quoted = [
    [60n, 40n],
    [150n, 50n],
  ];

  it('feeds each hop the previous hop’s actual output', () => {
    const hops = replayRouter(quoted, 101n, quote)!;
    expect(hops[0]).toEqual({ amountIn: 101n, amountsIn: [60n, 41n], amountsOut: [120n, 82n], amountOut: 202n });
    expect(hops[1]).toEqual({ amountIn: 202n, amountsIn: [151n, 51n], amountsOut: [50n, 17n], amountOut: 67n });
  });

  it('answers the same with a quote that answers later', async () => {
    expect(await replayRouterAsync(quoted, 101n, async (hop, shares) => quote(hop, shares))).toEqual(replayRouter(quoted, 101n, quote));
  });

  it('stops when a hop does not execute', async () => {
    const seen: number[] = [];
    const refuseFirst: HopQuote = (hop) => (seen.push(hop), undefined);
    expect(replayRouter(quoted, 101n, refuseFirst)).toBeUndefined();
    expect(seen).toEqual([0]);
    expect(await replayRouterAsync([[0n]], 1n, async () => [1n])).toBeUndefined();
  });
});
