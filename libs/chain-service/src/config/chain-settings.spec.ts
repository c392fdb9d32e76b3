import { loadChainEndpoints, loadChainServiceSettings } from './chain-settings';

describe('loadChainEndpoints', () => {
  it('requires an RPC URL per served chain', () => {
    expect(loadChainEndpoints('svc', '999', { RPC_URL_999: 'http://127.0.0.1:8545' })).toEqual([{ chainId: 999, rpcUrl: 'http://127.0.0.1:8545' }]);
    expect(() => loadChainEndpoints('svc', '999,4663', { RPC_URL_999: 'http://x' })).toThrow('missing required setting RPC_URL_4663');
  });

  it('rejects unsupported chains and malformed URLs', () => {
    expect(() => loadChainEndpoints('svc', '1', {})).toThrow('unsupported chain 1');
    expect(() => loadChainEndpoints('svc', '999', { RPC_URL_999: 'localhost:8545' })).toThrow('invalid setting RPC_URL_999');
    expect(() => loadChainEndpoints('svc', ' , ', {})).toThrow('lists no chain');
    expect(() => loadChainEndpoints('svc', '999', { RPC_URL_999: 'http://a:8545,localhost:8545' })).toThrow('invalid setting RPC_URL_999');
    expect(() => loadChainEndpoints('svc', '999', { RPC_URL_999: ' , ' })).toThrow('missing required setting RPC_URL_999');
  });

  it('takes several comma-separated providers per chain, in order', () => {
    expect(loadChainEndpoints('svc', '999', { RPC_URL_999: 'https://a.example/key, http://127.0.0.1:8545 ,' })).toEqual([
      { chainId: 999, rpcUrl: 'https://a.example/key,http://127.0.0.1:8545' },
    ]);
  });
});

describe('loadChainServiceSettings', () => {
  it('gives each chain the providers settings, with their defaults', () => {
    const env = { CHAIN_IDS: '999', RPC_URL_999: 'http://a:1,http://b:2' };
    expect(loadChainServiceSettings('svc', 3000, {}, env).chains).toEqual([
      { chainId: 999, rpcUrl: 'http://a:1,http://b:2', providers: { probeIntervalMs: 1_000, maxLagBlocks: 5, staleAfterMs: 10_000 } },
    ]);
    expect(loadChainServiceSettings('svc', 3000, {}, { ...env, RPC_STALE_AFTER_MS: '2500', RPC_MAX_LAG_BLOCKS: '0' }).chains[0].providers).toEqual({ probeIntervalMs: 1_000, maxLagBlocks: 0, staleAfterMs: 2_500 });
    expect(() => loadChainServiceSettings('svc', 3000, {}, { ...env, RPC_STALE_AFTER_MS: '0' })).toThrow('invalid setting RPC_STALE_AFTER_MS');
  });
});
