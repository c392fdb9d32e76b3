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

  it("follows a Uniswap V4 source's PoolManager (its poolManager, or its factory), a kind the routing services do not take yet", () => {
    const manager = getAddress('0x00000000000000000000000000000000000000f6');
    const stateView = getAddress('0x00000000000000000000000000000000000000f7');
    const sources = [
      { name: 'V4', kind: 'uniswap-v4', routerIndex: 9, addresses: { stateView, poolManager: manager }, deploymentBlock: 12 },
      { name: 'V4 fork', kind: 'uniswap-v4', routerIndex: 10, addresses: { factory: FACTORY } },
    ];
    const chain = parseWatchLists({ chains: { '999': { sources } } }, [999]).get(999)!;
    expect([...chain.announcers]).toEqual([
      [manager, { name: 'V4', kind: 'uniswap-v4', routerIndex: 9, feeBps: null, deploymentBlock: 12 }],
      [FACTORY, { name: 'V4 fork', kind: 'uniswap-v4', routerIndex: 10, feeBps: null }],
    ]);
  });
});
