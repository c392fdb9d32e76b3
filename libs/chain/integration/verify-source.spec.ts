// verifySource against the devnet's contracts on anvil: every source the devnet configures (our core AMM and
// launchpad, real v2-core, v3-core and Algebra factories, our V2 and stable factories) is what it says; a source
// whose address is another kind's contract, an account without code, or a missing address is not, with the reason;
// a node that does not answer is an error, not a verdict.
import { createChainClient, verifySource, type ChainPublicClient } from '@dex/chain';
import { startTestChains, type TestChains } from '@dex/testing';
import type { Address } from 'viem';

jest.setTimeout(90_000);

describe('verifySource on a real chain', () => {
  let chains: TestChains;
  let client: ChainPublicClient;
  const chain = () => chains.manifest.chains['999'];
  const factoryOf = (kind: string) => chain().sources.find((s) => s.kind === kind)!.addresses.factory;

  beforeAll(async () => {
    chains = await startTestChains([999]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address });
  });

  afterAll(async () => {
    await chains?.stop();
  });

  it('finds every devnet source what its config says', async () => {
    const kinds = new Set(chain().sources.map((s) => s.kind));
    expect([...kinds].sort()).toEqual(['algebra', 'core', 'launchpad', 'stable', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4']);
    for (const source of chain().sources) expect([source.name, await verifySource(client, source)]).toEqual([source.name, { ok: true }]);
  });

  it('says why a source is not what its config says', async () => {
    const check = (kind: string, addresses: Record<string, string>) => verifySource(client, { name: 'x', kind, addresses });
    expect(await check('uniswap-v3', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: expect.stringMatching(/^feeAmountTickSpacing\(500\) is not answered/) });
    expect(await check('algebra', { factory: factoryOf('uniswap-v3') })).toEqual({ ok: false, reason: expect.stringMatching(/^poolDeployer\(\) is not answered/) });
    expect(await check('uniswap-v2', { factory: factoryOf('stable') })).toEqual({ ok: false, reason: expect.stringMatching(/^the first pair's kLast\(\) is not answered/) });
    expect(await check('stable', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: expect.stringMatching(/^allPoolsLength\(\) is not answered/) });
    expect(await check('uniswap-v2', { factory: '0x00000000000000000000000000000000000b0b0b' })).toEqual({ ok: false, reason: 'no contract at its factory 0x00000000000000000000000000000000000b0B0b' });
    expect(await check('uniswap-v2', { router: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: 'no factory address' });
    expect(await check('curve-stableswap-ng', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: 'kind curve-stableswap-ng is not one the service routes' });
    const v4 = chain().sources.find((s) => s.kind === 'uniswap-v4')!.addresses;
    expect(await check('uniswap-v4', { poolManager: factoryOf('uniswap-v3') })).toEqual({ ok: false, reason: expect.stringMatching(/^protocolFeeController\(\) is not answered/) });
    expect(await check('uniswap-v4', { poolManager: factoryOf('uniswap-v3'), stateView: v4.stateView })).toEqual({ ok: false, reason: expect.stringMatching(/^protocolFeeController\(\) is not answered/) });
    expect(await check('uniswap-v4', { poolManager: v4.poolManager, stateView: v4.positionMinter })).toEqual({ ok: false, reason: expect.stringMatching(/^the StateView's poolManager\(\) is not answered/) });
  });

  it('throws when the node does not answer', async () => {
    const dead = createChainClient({ chainId: 999, rpcUrl: 'http://127.0.0.1:1', timeoutMs: 500 });
    await expect(verifySource(dead, { name: 'x', kind: 'uniswap-v2', addresses: { factory: factoryOf('uniswap-v2') } })).rejects.toThrow();
  });
});
