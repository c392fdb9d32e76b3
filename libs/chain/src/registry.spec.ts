import { CANONICAL_MULTICALL3, CHAINS, getChainInfo, isSupportedChainId, SUPPORTED_CHAIN_IDS, toViemChain } from './registry';

describe('chain registry', () => {
  it('serves chains 999 (HYPE) and 4663 (ETH), and nothing else', () => {
    expect([...SUPPORTED_CHAIN_IDS].sort((a, b) => a - b)).toEqual([999, 4663]);
    expect(getChainInfo(999)).toMatchObject({ nativeSymbol: 'HYPE', wrappedNativeSymbol: 'WHYPE', smallBlockGasLimit: 2_000_000 });
    expect(getChainInfo(4663)).toMatchObject({ nativeSymbol: 'ETH', wrappedNativeSymbol: 'WETH' });
    expect(isSupportedChainId(999)).toBe(true);
    expect(isSupportedChainId('999')).toBe(false);
    expect(isSupportedChainId(1)).toBe(false);
    expect(() => getChainInfo(1)).toThrow('Unsupported chainId: 1');
  });

  it('builds a viem chain on the RPC URL, with the canonical Multicall3 unless told another', () => {
    const chain = toViemChain(4663, 'http://127.0.0.1:8545');
    expect(chain).toMatchObject({ id: 4663, nativeCurrency: { symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } });
    expect(chain.contracts?.multicall3?.address).toBe(CANONICAL_MULTICALL3);
    const own = '0x0000000000000000000000000000000000000042';
    expect(toViemChain(999, 'http://x', own).contracts?.multicall3?.address).toBe(own);
    expect(CHAINS[999].name).toBe('HyperEVM');
  });
});
