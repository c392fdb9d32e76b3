import { proportionalShares, replayStages, replayStagesAsync, type StageQuote } from './router-replay';

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

describe('replayStages: a linear route (each stage one hop)', () => {
  // Hop 1 (A -> B) pays twice its shares, hop 2 (B -> C) a third of them (rounded down).
  const rates = [(x: bigint) => x * 2n, (x: bigint) => x / 3n];
  const quote: StageQuote = (stage, shares) => shares.map(rates[stage]);
  const stages = [
    [
      { tokenIn: 'A', tokenOut: 'B', amountIn: 60n },
      { tokenIn: 'A', tokenOut: 'B', amountIn: 40n },
    ],
    [
      { tokenIn: 'B', tokenOut: 'C', amountIn: 150n },
      { tokenIn: 'B', tokenOut: 'C', amountIn: 50n },
    ],
  ];

  it('feeds each hop the previous hop’s actual output', () => {
    const route = replayStages(stages, 'A', 'C', 101n, quote)!;
    expect(route.stages[0]).toEqual({ amountIn: 101n, amountsIn: [60n, 41n], amountsOut: [120n, 82n], amountOut: 202n });
    expect(route.stages[1]).toEqual({ amountIn: 202n, amountsIn: [151n, 51n], amountsOut: [50n, 17n], amountOut: 67n });
    expect(route.amountOut).toBe(67n);
  });

  it('answers the same with a quote that answers later', async () => {
    expect(await replayStagesAsync(stages, 'A', 'C', 101n, async (stage, shares) => quote(stage, shares))).toEqual(replayStages(stages, 'A', 'C', 101n, quote));
  });

  it('stops when a stage does not execute', async () => {
    const seen: number[] = [];
    const refuseFirst: StageQuote = (stage) => (seen.push(stage), undefined);
    expect(replayStages(stages, 'A', 'C', 101n, refuseFirst)).toBeUndefined();
    expect(seen).toEqual([0]);
    expect(await replayStagesAsync([[{ tokenIn: 'A', tokenOut: 'B', amountIn: 0n }]], 'A', 'B', 1n, async () => [1n])).toBeUndefined();
  });
});

describe('replayStages: stages of several token pairs', () => {
  // A -> B and A -> C in stage 0, B -> C in stage 1, C -> D in stage 2: C is produced in stages 0 and 1 and
  // spent whole in stage 2. Every swap pays what it is given (an identity quote) plus one.
  const plusOne: StageQuote = (_, shares) => shares.map((x) => (x > 0n ? x + 1n : 0n));
  const stages = [
    [
      { tokenIn: 'A', tokenOut: 'B', amountIn: 30n },
      { tokenIn: 'A', tokenOut: 'C', amountIn: 70n },
    ],
    [{ tokenIn: 'B', tokenOut: 'C', amountIn: 31n }],
    [
      { tokenIn: 'C', tokenOut: 'D', amountIn: 60n },
      { tokenIn: 'C', tokenOut: 'D', amountIn: 43n },
    ],
  ];

  it('shares what the router holds of each token by the quoted inputs of the stage’s swaps on it', () => {
    const route = replayStages(stages, 'a', 'd', 100n, plusOne)!;
    expect(route.stages.map((s) => s.amountsIn)).toEqual([[30n, 70n], [31n], [60n, 43n]]);
    expect(route.amountOut).toBe(105n);
    // 200 in: A's swaps share 200 as 30:70, C (141 + 61 = 202... held) is shared as 60:43, the last taking the rest.
    const doubled = replayStages(stages, 'A', 'D', 200n, plusOne)!;
    expect(doubled.stages[0].amountsIn).toEqual([60n, 140n]);
    expect(doubled.stages[1].amountsIn).toEqual([61n]);
    expect(doubled.stages[2].amountsIn).toEqual([(203n * 60n) / 103n, 203n - (203n * 60n) / 103n]);
    expect(doubled.amountOut).toBe(205n);
  });

  it('groups a stage’s swaps by their token in, whatever their order', () => {
    const interleaved = [
      [
        { tokenIn: 'A', tokenOut: 'B', amountIn: 1n },
        { tokenIn: 'X', tokenOut: 'B', amountIn: 5n },
        { tokenIn: 'A', tokenOut: 'C', amountIn: 3n },
      ],
    ];
    const seen: (readonly bigint[])[] = [];
    replayStages(interleaved, 'A', 'B', 8n, (_, shares) => (seen.push(shares), shares));
    // X is held by nobody: its swap gets nothing; A's two swaps share 8 as 1:3.
    expect(seen).toEqual([[2n, 0n, 6n]]);
  });

  it('fails a route that would end holding anything but its output token', () => {
    expect(replayStages([[{ tokenIn: 'A', tokenOut: 'B', amountIn: 1n }]], 'A', 'C', 5n, plusOne)).toBeUndefined();
    expect(replayStages(stages.slice(0, 2), 'A', 'C', 100n, plusOne)).toBeDefined();
    expect(replayStages(stages.slice(0, 1), 'A', 'C', 100n, plusOne)).toBeUndefined();
  });
});
