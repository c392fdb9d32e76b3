// The Curve NG quotes of libs/chain (quoteCurveSwaps, sampleCurvePools) on the devnet's StableswapNG stand-in
// (libs/contracts/src/devnet/curve: NG's interface and maths, deployed through its factory from a blueprint as NG's
// factory does), on a private anvil: the factory's pools found by pool_count and pool_list with their coins, and their
// state read; every
// ordered coin pair of a 3-coin pool sampled in one eth_call, each sample what `exchange` then pays; refused swaps
// undefined.
import {
  curveStableSwapFactoryNGStandInAbi,
  curveStableSwapFactoryNGStandInBytecode,
  curveStableSwapNGStandInAbi,
  curveStableSwapNGStandInBytecode,
  multicall3Abi,
  multicall3Bytecode,
  testERC20Abi,
  testERC20Bytecode,
} from '@dex/abis';
import { blueprintCreationCode, createChainClient, quoteCurveSwaps, readCurveFactoryPools, readCurvePools, sampleCurvePools, type ChainPublicClient } from '@dex/chain';
import { startOnchainChain, type OnchainChain } from '@dex/testing';
import { createPublicClient, custom, maxUint256, parseUnits, type Abi, type Address, type Hex } from 'viem';

jest.setTimeout(120_000);

describe('Curve NG quotes through the pools’ own get_dy', () => {
  let chain: OnchainChain;
  let client: ChainPublicClient;
  let pool: Address;
  let factory: Address;
  const coins: Address[] = [];
  const decimals = [18, 6, 6];

  beforeAll(async () => {
    chain = await startOnchainChain({ chainId: 999 });
    const multicall3 = await chain.deploy({ abi: multicall3Abi as Abi, bytecode: multicall3Bytecode as Hex });
    client = createChainClient({ chainId: 999, rpcUrl: chain.node.rpcUrl, multicall3, pollingIntervalMs: 20 });
    for (const [k, d] of decimals.entries()) coins.push(await chain.deploy({ abi: testERC20Abi as Abi, bytecode: testERC20Bytecode as Hex }, [`Coin ${k}`, `C${k}`, d]));
    const me = chain.account.address;
    factory = await chain.deploy({ abi: curveStableSwapFactoryNGStandInAbi as Abi, bytecode: curveStableSwapFactoryNGStandInBytecode as Hex }, [me, me]);
    // The pool's blueprint (EIP-5202: 0xFE7100 and its creation code), deployed by the code Vyper's create_copy_of uses.
    const creation = blueprintCreationCode(curveStableSwapNGStandInBytecode as Hex);
    const hash = await chain.wallet.sendTransaction({ account: chain.account, chain: chain.wallet.chain, data: creation, gas: 15_000_000n });
    const blueprint = (await chain.client.waitForTransactionReceipt({ hash })).contractAddress!;
    await chain.send(factory, curveStableSwapFactoryNGStandInAbi as Abi, 'set_pool_implementations', [0n, blueprint]);
    await chain.send(factory, curveStableSwapFactoryNGStandInAbi as Abi, 'deploy_plain_pool', ['Three', '3CRV', coins, 200n, 4_000_000n, 20_000_000_000n, 866n, 0n, [0, 0, 0], ['0x00000000', '0x00000000', '0x00000000'], [me, me, me].map(() => '0x0000000000000000000000000000000000000000')]);
    pool = (await chain.client.readContract({ address: factory, abi: curveStableSwapFactoryNGStandInAbi, functionName: 'pool_list', args: [0n] })) as Address;
    // Deposits a little off balance (2M, 1.5M, 1M of each), so the dynamic fee shows.
    const deposits = [2_000_000, 1_500_000, 1_000_000].map((n, k) => parseUnits(String(n), decimals[k]));
    for (const [k, coin] of coins.entries()) {
      await chain.send(coin, testERC20Abi as Abi, 'mint', [me, deposits[k] * 10n]);
      await chain.send(coin, testERC20Abi as Abi, 'approve', [pool, maxUint256]);
    }
    await chain.send(pool, curveStableSwapNGStandInAbi as Abi, 'add_liquidity', [deposits, 0n]);
  });

  afterAll(async () => {
    await chain?.node.stop();
  });

  /** What `exchange(i, j, dx)` pays at the head, the state put back after. */
  async function exchanged(i: number, j: number, dx: bigint): Promise<bigint> {
    const snapshot = await chain.client.request({ method: 'evm_snapshot' as never, params: [] as never });
    const before = (await chain.client.readContract({ address: coins[j], abi: testERC20Abi, functionName: 'balanceOf', args: [chain.account.address] })) as bigint;
    await chain.send(pool, curveStableSwapNGStandInAbi as Abi, 'exchange', [BigInt(i), BigInt(j), dx, 0n]);
    const after = (await chain.client.readContract({ address: coins[j], abi: testERC20Abi, functionName: 'balanceOf', args: [chain.account.address] })) as bigint;
    await chain.client.request({ method: 'evm_revert' as never, params: [snapshot] as never });
    return after - before;
  }

  it('samples every ordered coin pair in one eth_call, each sample what exchange pays, ending where the outputs stop growing', async () => {
    let calls = 0;
    const counting = createChainClient({ chainId: client.chain.id, rpcUrl: chain.node.rpcUrl, multicall3: client.chain.contracts!.multicall3!.address, pollingIntervalMs: 20 });
    const transport = custom({ request: async (req: { method: string; params?: unknown }) => ((calls += req.method === 'eth_call' ? 1 : 0), counting.request(req as never)) });
    const countingClient = Object.assign(createPublicClient({ chain: client.chain, transport }), { chain: client.chain }) as unknown as ChainPublicClient;
    const blockNumber = await chain.client.getBlockNumber();
    const pairs = [0, 1, 2].flatMap((i) => [0, 1, 2].filter((j) => j !== i).map((j) => ({ i, j })));
    // Inputs from dust to far past the whole pool: there NG pays nearly all of coin j whatever more comes in, so the
    // outputs stop growing (equal, or a unit less), and the ladder ends before the first that falls.
    const ladder = (i: number) => [1, 100, 10_000, 500_000, 1_400_000, 50_000_000, 5_000_000_000].map((n) => parseUnits(String(n), decimals[i]));
    const [sampled] = await sampleCurvePools(countingClient, { pools: [{ pool, flavor: 'stableswap-ng', directions: pairs.map((p) => ({ ...p, ladder: ladder(p.i) })) }], blockNumber });
    expect(calls).toBe(1);
    expect(sampled.map((d) => [d.i, d.j])).toEqual(pairs.map((p) => [p.i, p.j]));
    for (const d of sampled) {
      expect(d.samples.length).toBeGreaterThanOrEqual(4);
      expect(d.samples.length).toBeLessThan(ladder(d.i).length);
      for (const s of d.samples.slice(0, 5)) expect(await exchanged(d.i, d.j, s.amountIn)).toBe(s.amountOut);
      for (let k = 1; k < d.samples.length; k++) expect(d.samples[k].amountOut).toBeGreaterThanOrEqual(d.samples[k - 1].amountOut);
    }
    // The off-balance pool pays more for the scarce coin's buyers' input than at par, less the other way (dynamic fee).
    const [in0] = sampled.filter((d) => d.i === 0 && d.j === 2);
    const [in2] = sampled.filter((d) => d.i === 2 && d.j === 0);
    const rate = (d: typeof in0, k: number) => Number(d.samples[k].amountOut) / Number(d.samples[k].amountIn);
    expect(rate(in0, 2) * 1e12).toBeLessThan(1);
    expect(rate(in2, 2) / 1e12).toBeGreaterThan(1);
  });

  it("finds the factory's pools by pool_count and pool_list with their coins, and reads their balances, A and fee", async () => {
    const blockNumber = await chain.client.getBlockNumber();
    expect(await readCurveFactoryPools(client, { factory, flavor: 'stableswap-ng', blockNumber })).toEqual([{ address: pool, coins }]);
    const [state] = await readCurvePools(client, { pools: [{ pool, flavor: 'stableswap-ng', factory }], blockNumber });
    expect(state).toMatchObject({
      nCoins: 3,
      balances: [2_000_000, 1_500_000, 1_000_000].map((n, k) => parseUnits(String(n), decimals[k])),
      A: 200n,
      fee: 4_000_000n,
      exchangeReceived: true,
    });
  });

  it('quotes swaps exactly, a refused one undefined, an input of 0 unsent', async () => {
    const blockNumber = await chain.client.getBlockNumber();
    const dx = parseUnits('25000', 6);
    const [ok, refused, zero] = await quoteCurveSwaps(client, {
      blockNumber,
      swaps: [
        { pool, flavor: 'stableswap-ng', i: 1, j: 0, amountIn: dx },
        // A coin the pool does not have: it reverts. (An input past the pool's depth is no refusal: NG pays
        // nearly all of coin j for it.)
        { pool, flavor: 'stableswap-ng', i: 0, j: 5, amountIn: dx },
        { pool, flavor: 'stableswap-ng', i: 0, j: 2, amountIn: 0n },
      ],
    });
    expect(ok).toBe(await exchanged(1, 0, dx));
    expect(refused).toBeUndefined();
    expect(zero).toBeUndefined();
  });
});
