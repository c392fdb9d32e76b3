// verifySource against the devnet's contracts on anvil: every source the devnet configures (our core AMM and
// launchpad, real v2-core, v3-core and Algebra factories, our V2 and stable factories, v4-core's PoolManager with its
// listed hooks allowed on RouterV2) is what it says; a source whose address is another kind's contract, an account
// without code, or a missing address is not, with the reason; nor a V4 source listing a hook without code or one
// RouterV2 does not allow for it (the reason naming the owner's call); a node that does not answer is an error, not a
// verdict.
import { createChainClient, verifySource, type ChainPublicClient } from '@dex/chain';
import { startTestChains, type TestChains } from '@dex/testing';
import { getAddress, type Address } from 'viem';

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
    expect([...kinds].sort()).toEqual(['algebra', 'core', 'curve-stableswap-ng', 'curve-twocrypto-ng', 'launchpad', 'stable', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4']);
    for (const source of chain().sources) expect([source.name, await verifySource(client, source, { routerV2: chain().routerV2 })]).toEqual([source.name, { ok: true }]);
  });

  it("checks a V4 source's listed hooks: code at each, and RouterV2 allowing each for the source", async () => {
    const v4 = chain().sources.find((s) => s.kind === 'uniswap-v4')!;
    const [inputFee, swapLimit] = ['inputFeeHook', 'swapLimitHook'].map((role) => getAddress(v4.addresses[role]));
    expect(v4.hooks).toEqual([
      { address: inputFee, name: 'DevSwap V4 input-fee hook', quote: 'sampled' },
      { address: swapLimit, name: 'DevSwap V4 swap-limit hook', quote: 'exact' },
    ]);
    const router = getAddress(chain().routerV2);
    const check = (source: typeof v4, routerV2: string | undefined = router) => verifySource(client, source, { routerV2 });
    // Another slot of RouterV2 allows neither hook: the reason names both and the calls that fix it.
    expect(await check({ ...v4, routerIndex: 9 })).toEqual({
      ok: false,
      reason:
        `RouterV2 ${router} does not allow its hooks DevSwap V4 input-fee hook ${inputFee}, DevSwap V4 swap-limit hook ${swapLimit} for routerIndex 9 and refuses swaps through them: ` +
        `the router's owner must call setHookAllowed(9, ${inputFee}, true) and setHookAllowed(9, ${swapLimit}, true) (npm run deploy sends them)`,
    });
    expect(await check({ ...v4, routerIndex: 9, hooks: v4.hooks!.slice(1) })).toEqual({ ok: false, reason: expect.stringMatching(/^RouterV2 0x[0-9a-fA-F]{40} does not allow its hook DevSwap V4 swap-limit hook .* \(npm run deploy sends it\)$/) });
    // The dynamic-fee hook has no swap permission: RouterV2 allows it anywhere, listed or not.
    expect(await check({ ...v4, routerIndex: 9, hooks: [{ address: getAddress(v4.addresses.dynamicFeeHook), name: 'dynamic', quote: 'exact' }] })).toEqual({ ok: true });
    // Without RouterV2 only the hooks' code is checked.
    expect(await verifySource(client, { ...v4, routerIndex: 9 })).toEqual({ ok: true });
    const noCode = getAddress('0x0000000000000000000000000000000000b00088');
    expect(await check({ ...v4, hooks: [...v4.hooks!, { address: noCode, name: 'Ghost hook', quote: 'exact' }] })).toEqual({ ok: false, reason: `no contract at its hook Ghost hook ${noCode}` });
    // A RouterV2 address that is not one: the read is refused.
    expect(await check(v4, v4.addresses.poolManager)).toEqual({ ok: false, reason: expect.stringMatching(/^RouterV2's isHookAllowed\(8, 0x[0-9a-fA-F]{40}\) is not answered/) });
  });

  it('says why a source is not what its config says', async () => {
    const check = (kind: string, addresses: Record<string, string>) => verifySource(client, { name: 'x', kind, addresses });
    expect(await check('uniswap-v3', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: expect.stringMatching(/^feeAmountTickSpacing\(500\) is not answered/) });
    expect(await check('algebra', { factory: factoryOf('uniswap-v3') })).toEqual({ ok: false, reason: expect.stringMatching(/^poolDeployer\(\) is not answered/) });
    expect(await check('uniswap-v2', { factory: factoryOf('stable') })).toEqual({ ok: false, reason: expect.stringMatching(/^the first pair's kLast\(\) is not answered/) });
    expect(await check('stable', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: expect.stringMatching(/^allPoolsLength\(\) is not answered/) });
    expect(await check('uniswap-v2', { factory: '0x00000000000000000000000000000000000b0b0b' })).toEqual({ ok: false, reason: 'no contract at its factory 0x00000000000000000000000000000000000b0B0b' });
    expect(await check('uniswap-v2', { router: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: 'no factory address' });
    expect(await check('curve-stableswap-ng', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: expect.stringMatching(/^pool_implementations\(0\) is not answered/) });
    expect(await check('curve-twocrypto-ng', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: expect.stringMatching(/^math_implementation\(\) is not answered/) });
    expect(await check('other', { factory: factoryOf('uniswap-v2') })).toEqual({ ok: false, reason: 'kind other is not one the service routes' });
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
