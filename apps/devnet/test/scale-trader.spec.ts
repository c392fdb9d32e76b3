// The scale trader on a real scale-profile chain: its swaps land through RouterV2 on the V2, stable, concentrated
// (Uniswap V3, Algebra), Uniswap V4 (on v4-core's PoolManager, hooked ones too) and Curve NG pools of the profile.
import { createChainClient } from '@dex/chain';
import { startDevnet, type Devnet } from '@dex/devnet-kit';
import { getAddress, parseAbiItem, type Address } from 'viem';
import { ScaleTrader, scaleTraderAccounts, type SimulatorLogger } from '../src/simulator';

jest.setTimeout(120_000);

const V4_SWAP = parseAbiItem('event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)');
const STABLESWAP_EXCHANGE = parseAbiItem('event TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought)');
const TWOCRYPTO_EXCHANGE = parseAbiItem('event TokenExchange(address buyer, uint256 sold_id, uint256 tokens_sold, uint256 bought_id, uint256 tokens_bought, uint256 fee, uint256 price_scale)');
const V3_SWAP = parseAbiItem('event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)');

describe('scale trader', () => {
  let devnet: Devnet;

  beforeAll(async () => {
    devnet = await startDevnet({
      ports: { 4663: 0 },
      gatewayUrl: 'http://127.0.0.1:3000',
      scale: { pools: 80, tokens: 10, traders: scaleTraderAccounts().map((a) => a.address) },
    });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('swaps through RouterV2 on the profile pools of every kind it trades, concentrated and Curve ones included', async () => {
    const chain = devnet.manifest.chains['4663'];
    const scale = devnet.scale!.get(4663)!;
    const warnings: unknown[] = [];
    const logger: SimulatorLogger = { log: () => undefined, warn: (m) => warnings.push(m), debug: () => undefined };
    const trader = new ScaleTrader({ chain, scale, accounts: scaleTraderAccounts(), swapsPerBlock: 40, seed: 3, logger, summaryIntervalMs: 0 });
    await trader.prepare();
    const client = createChainClient({ chainId: 4663, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3 as Address });
    const from = (await client.getBlockNumber()) + 1n;
    trader.start();
    // Blocks come from the trader's own transactions after the first one.
    await client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
    const v3 = new Set(scale.pools.filter((p) => p.kind === 'uniswap-v3').map((p) => p.address));
    const v4 = new Set(scale.pools.flatMap((p) => (p.kind === 'uniswap-v4' && p.poolId ? [p.poolId.toLowerCase()] : [])));
    expect(v4.size).toBeGreaterThan(0);
    const manager = scale.pools.find((p) => p.kind === 'uniswap-v4')!.address;
    const v4Swaps = () => client.getLogs({ address: manager, event: V4_SWAP, fromBlock: from, toBlock: 'latest' }).then((logs) => logs.filter((l) => v4.has(l.args.id!.toLowerCase())));
    // The profile's Curve pools: a StableswapNG and a TwocryptoNG one (2% of 80 pools).
    const stableswap = scale.pools.filter((p) => p.kind === 'curve-stableswap-ng').map((p) => p.address);
    const twocrypto = scale.pools.filter((p) => p.kind === 'curve-twocrypto-ng').map((p) => p.address);
    expect([stableswap.length, twocrypto.length]).toEqual([1, 1]);
    const curveSwaps = async () => ({
      stableswap: await client.getLogs({ address: stableswap, event: STABLESWAP_EXCHANGE, fromBlock: from, toBlock: 'latest' }),
      twocrypto: await client.getLogs({ address: twocrypto, event: TWOCRYPTO_EXCHANGE, fromBlock: from, toBlock: 'latest' }),
    });
    let swapped = new Set<Address>();
    let swappedV4 = 0;
    let curve = { stableswap: [] as unknown[], twocrypto: [] as unknown[] };
    for (let i = 0; i < 150 && (swapped.size === 0 || swappedV4 === 0 || curve.stableswap.length === 0 || curve.twocrypto.length === 0); i++) {
      await new Promise((r) => setTimeout(r, 200));
      const logs = await client.getLogs({ event: V3_SWAP, fromBlock: from, toBlock: 'latest' });
      swapped = new Set(logs.map((l) => getAddress(l.address)).filter((a) => v3.has(a)));
      swappedV4 = (await v4Swaps()).length;
      curve = await curveSwaps();
    }
    await trader.stop();
    expect(warnings).toEqual([]);
    expect(swapped.size).toBeGreaterThan(0);
    // Curve pools of both kinds, through RouterV2 (a pool's TokenExchange names its caller, the router, as the buyer).
    const curveLogs = await curveSwaps();
    expect(curveLogs.stableswap.length).toBeGreaterThan(0);
    expect(curveLogs.twocrypto.length).toBeGreaterThan(0);
    for (const l of [...curveLogs.stableswap, ...curveLogs.twocrypto]) expect(getAddress(l.args.buyer!)).toBe(chain.routerV2);
    // V4 pools too, through RouterV2 (the PoolManager's Swap names the router as its sender).
    const v4Logs = await v4Swaps();
    expect(v4Logs.length).toBeGreaterThan(0);
    for (const l of v4Logs) expect(getAddress(l.args.sender!)).toBe(chain.routerV2);
    // The V3 pools' Swap events name RouterV2 as the sender: the trader went through the router.
    const logs = await client.getLogs({ event: V3_SWAP, fromBlock: from, toBlock: 'latest' });
    for (const l of logs.filter((x) => v3.has(getAddress(x.address)))) expect(getAddress(l.args.sender!)).toBe(chain.routerV2);
  });
});
