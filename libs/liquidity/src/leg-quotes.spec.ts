import { legsOf, type PoolSnapshot } from '@dex/routing';
import { QuoteMemory, rememberQuotes } from './leg-quotes';

const A = '0x' + '1'.repeat(40);
const B = '0x' + '2'.repeat(40);
const identity = { address: '0x' + 'a'.repeat(40), routerIndex: 1, token0: A, token1: B, decimals0: 18, decimals1: 6 };
const pools: PoolSnapshot[] = [
  { kind: 'uniswap-v2', ...identity, reserve0: 10n ** 24n, reserve1: 2n * 10n ** 12n, feeBps: 30 },
  { kind: 'stable', ...identity, reserve0: 5n * 10n ** 23n, reserve1: 5n * 10n ** 11n + 12_345n, feeBps: 4 },
];
const inputs = [0n, 1n, 10n ** 15n, 10n ** 18n, 7n * 10n ** 20n, 10n ** 24n, 10n ** 30n];

describe('rememberQuotes', () => {
  for (const pool of pools) {
    it(`answers a ${pool.kind} leg's quotes as the leg computes them, each input computed once`, () => {
      for (const [d, fresh] of legsOf(pool).entries()) {
        const leg = legsOf(pool)[d];
        let computed = 0;
        const own = leg.quote.bind(leg);
        leg.quote = (amountIn: bigint) => {
          computed++;
          return own(amountIn);
        };
        const memory = new QuoteMemory();
        const remembered = rememberQuotes(leg, memory);
        expect(remembered).toBe(leg);
        for (let round = 0; round < 3; round++) for (const x of inputs) expect(remembered.quote(x)).toBe(fresh.quote(x));
        expect(computed).toBe(inputs.length);
        // Renewed, the memory forgets: each input is computed once more.
        memory.renew();
        for (let round = 0; round < 2; round++) for (const x of inputs) expect(remembered.quote(x)).toBe(fresh.quote(x));
        expect(computed).toBe(2 * inputs.length);
        // quoteIn's search goes through the remembered quote and finds what the fresh leg finds.
        const out = fresh.quote(10n ** 18n);
        expect(remembered.quoteIn(out)).toBe(fresh.quoteIn(out));
      }
    });
  }

  it('starts afresh when full, still answering what the leg computes', () => {
    const [fresh] = legsOf(pools[0]);
    const leg = rememberQuotes(legsOf(pools[0])[0], new QuoteMemory(), 4);
    for (let round = 0; round < 2; round++) for (let i = 1n; i <= 10n; i++) expect(leg.quote(i * 10n ** 17n)).toBe(fresh.quote(i * 10n ** 17n));
  });
});
