import { getAddress } from 'viem';
import { parseWatchLists } from './watch-list';

const A = getAddress('0x00000000000000000000000000000000000000a1');
const B = getAddress('0x00000000000000000000000000000000000000b2');
const POOL = getAddress('0x00000000000000000000000000000000000000c3');
const FACTORY = getAddress('0x00000000000000000000000000000000000000f4');
const ROUTER = getAddress('0x00000000000000000000000000000000000000f5');

describe('watch lists', () => {
  it('reads announcers, tokens and pools of each chain from a sources file', () => {
    const lists = parseWatchLists(
      {
        chains: {
          '999': {
            sources: [
              { name: 'Core', kind: 'core', routerIndex: 0, addresses: { router: ROUTER } },
              { name: 'DevSwap V2', kind: 'uniswap-v2', routerIndex: 1, addresses: { factory: FACTORY }, feeBps: 30 },
            ],
            wrappedNative: { name: 'Wrapped', symbol: 'W', decimals: 18, address: A },
            pools: [{ name: 'Core A/B', routerIndex: 0, kind: 'core', address: POOL, token0: A, token1: B }],
          },
        },
      },
      [999, 4663],
    );
    const chain = lists.get(999)!;
    expect([...chain.announcers.keys()]).toEqual([ROUTER, FACTORY]);
    expect(chain.tokens.sort()).toEqual([A, B].sort());
    expect(chain.pools[0]).toMatchObject({ address: POOL, kind: 'core', name: 'Core' });
    expect(lists.get(4663)?.announcers.size).toBe(0);
  });
});
