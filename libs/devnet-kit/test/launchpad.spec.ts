// The launchpad as the devnet deploys it: tokens at each stage, routable through RouterV2 on their curve
// before graduation and on their DEX pool after.
import { launchpadAbi, routerV2Abi, uniswapV2FactoryAbi, uniswapV2PairAbi } from '@dex/abis';
import type { ManifestChain } from '@dex/messages';
import { getAmountOut } from '@dex/routing';
import { erc20Abi, parseEther, zeroAddress, type Abi } from 'viem';
import { deployContext, devAccounts, LAUNCHPAD_ROUTER_INDEX, send, startDevnet, type DeployContext, type Devnet } from '../src';

jest.setTimeout(90_000);

const buyer = devAccounts().find((a) => a.role === 'trader-2')!;

describe('launchpad on the devnet', () => {
  let devnet: Devnet;
  let chain: ManifestChain;
  let ctx: DeployContext;

  beforeAll(async () => {
    devnet = await startDevnet({ ports: { 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
    chain = devnet.manifest.chains['4663'];
    ctx = deployContext(4663, chain.rpcUrl);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  const launched = (symbol: string) => chain.launchpad.tokens.find((t) => t.symbol === symbol)!;
  /** The buyer pays `value` native coin through RouterV2 for `token` on one pool, expecting (and at least) `out`. */
  const buyWithNative = (token: `0x${string}`, pool: `0x${string}`, routerIndex: number, value: bigint, out: bigint) =>
    send(
      ctx,
      {
        address: chain.routerV2,
        abi: routerV2Abi as Abi,
        functionName: 'executeSwaps',
        args: [[zeroAddress, token], value, out, out, [[{ pool, tokenIn: chain.wrappedNative.address, tokenOut: token, routerIndex, amountIn: value, data: '0x' }]], 0n, zeroAddress],
        value,
      },
      buyer,
    );
  const balance = (token: `0x${string}`, who: `0x${string}`) => ctx.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

  it('launches tokens at each stage, as the chain says', async () => {
    expect(chain.launchpad.tokens.map((t) => [t.symbol, t.stage])).toEqual([
      ['FCAT', 'fresh'],
      ['MDOG', 'trading'],
      ['GFROG', 'graduated'],
    ]);
    expect(await ctx.publicClient.readContract({ address: chain.launchpad.address, abi: launchpadAbi, functionName: 'getTokenCount' })).toBe(3n);
    for (const t of chain.launchpad.tokens) {
      const state = await ctx.publicClient.readContract({ address: chain.launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [t.address] });
      expect(state.graduated).toBe(t.stage === 'graduated');
      const meta = await ctx.publicClient.readContract({ address: chain.launchpad.address, abi: launchpadAbi, functionName: 'getTokenMetadata', args: [t.address] });
      expect([meta.name, meta.symbol, meta.creator, meta.dexIndex]).toEqual([t.name, t.symbol, t.creator, 0]);
    }
    const mdog = await ctx.publicClient.readContract({ address: chain.launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [launched('MDOG').address] });
    const fcat = await ctx.publicClient.readContract({ address: chain.launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [launched('FCAT').address] });
    expect(mdog.hypeReserve).toBeGreaterThan(fcat.hypeReserve);
    const pool = chain.pools.find((p) => p.address === launched('GFROG').pair)!;
    expect(pool).toMatchObject({ kind: 'uniswap-v2', routerIndex: 1 });
    const [r0, r1] = await ctx.publicClient.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' });
    expect(r0 > 0n && r1 > 0n).toBe(true);
    expect(chain.sources.find((s) => s.kind === 'launchpad')).toMatchObject({ routerIndex: LAUNCHPAD_ROUTER_INDEX, addresses: { launchpad: chain.launchpad.address } });
  });

  it("fixes each token's pair address at creation and deploys the pair at graduation", async () => {
    const factory = chain.sources.find((s) => s.kind === 'uniswap-v2' && s.routerIndex === 1)!.addresses.factory as `0x${string}`;
    for (const t of chain.launchpad.tokens) {
      const deployed = await ctx.publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [t.address, chain.wrappedNative.address] });
      const code = await ctx.publicClient.getCode({ address: t.pair });
      if (t.stage === 'graduated') {
        expect(deployed).toBe(t.pair);
        expect(code).toBeDefined();
      } else {
        expect(deployed).toBe(zeroAddress);
        expect(code).toBeUndefined();
      }
    }
  });

  it('buys a trading token on its curve through RouterV2 for exactly the estimate', async () => {
    const token = launched('MDOG').address;
    const value = parseEther('3');
    const quoted = await ctx.publicClient.readContract({ address: chain.launchpad.address, abi: launchpadAbi, functionName: 'estimateBuy', args: [token, value] });
    const before = await balance(token, buyer.address);
    await buyWithNative(token, chain.launchpad.address, LAUNCHPAD_ROUTER_INDEX, value, quoted);
    expect((await balance(token, buyer.address)) - before).toBe(quoted);
  });

  it('buys a graduated token on its DEX pool through RouterV2', async () => {
    const token = launched('GFROG');
    const pool = chain.pools.find((p) => p.address === token.pair)!;
    const value = parseEther('2');
    const [r0, r1] = await ctx.publicClient.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' });
    const [reserveIn, reserveOut] = pool.token0 === chain.wrappedNative.address ? [r0, r1] : [r1, r0];
    const out = getAmountOut(value, reserveIn, reserveOut, 30n);
    const before = await balance(token.address, buyer.address);
    await buyWithNative(token.address, pool.address, 1, value, out);
    expect((await balance(token.address, buyer.address)) - before).toBe(out);
  });
});
