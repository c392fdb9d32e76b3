// The activity simulator against real devnet chains (anvil, both chains deployed and seeded as `npm start`
// does): with a fixed seed every action kind lands, and the chains change the way each action says.
import { launchpadAbi, settablePriceOracleAbi, stablePoolAbi, uniswapV2PairAbi } from '@dex/abis';
import { createChainClient } from '@dex/chain';
import { startDevnet, type Devnet } from '@dex/devnet-kit';
import type { DevnetManifest, ManifestChain } from '@dex/messages';
import { erc20Abi, getAddress, parseEventLogs, type Address } from 'viem';
import {
  ACTION_KINDS,
  ORACLE_BAND_BPS,
  prepareSimulator,
  Simulator,
  simulatorAccounts,
  type ActionKind,
  type ActionResult,
  type SimulatorLogger,
} from '../src/simulator';

jest.setTimeout(60_000);

const SEED = 7;
const TICKS = 14;
/** Every kind equally likely, so a short run covers them all. */
const EVEN = Object.fromEntries(ACTION_KINDS.map((k) => [k, 1])) as Record<ActionKind, number>;

function collectingLogger() {
  const lines: { level: string; message: Record<string, unknown> }[] = [];
  const logger: SimulatorLogger = {
    log: (message) => lines.push({ level: 'log', message: message as Record<string, unknown> }),
    warn: (message) => lines.push({ level: 'warn', message: message as Record<string, unknown> }),
    debug: (message) => lines.push({ level: 'debug', message: message as Record<string, unknown> }),
  };
  return { logger, lines };
}

describe('activity simulator', () => {
  let devnet: Devnet;
  let manifest: DevnetManifest;

  beforeAll(async () => {
    devnet = await startDevnet({ ports: { 999: 0, 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
    manifest = devnet.manifest;
    await prepareSimulator(manifest);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  const clientOf = (chain: ManifestChain) => createChainClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3 });
  const coreTokens = (chain: ManifestChain) => [...new Set(chain.pools.filter((p) => p.kind === 'core').flatMap((p) => [p.token0, p.token1]))];

  async function snapshot(chain: ManifestChain) {
    const client = clientOf(chain);
    const reserves = new Map<Address, readonly bigint[]>();
    for (const p of chain.pools.filter((x) => x.kind === 'uniswap-v2' || x.kind === 'stable')) {
      const abi = p.kind === 'stable' ? stablePoolAbi : uniswapV2PairAbi;
      reserves.set(p.address, (await client.readContract({ address: p.address, abi, functionName: 'getReserves' })) as readonly bigint[]);
    }
    const prices = new Map<Address, bigint>();
    for (const t of coreTokens(chain)) {
      prices.set(t, (await client.readContract({ address: chain.core.oracle, abi: settablePriceOracleAbi, functionName: 'getPriceUsd', args: [t] }))[0]);
    }
    const launched = await client.readContract({ address: chain.launchpad.address, abi: launchpadAbi, functionName: 'getTokenCount' });
    return { reserves, prices, launched };
  }

  it('funds its own accounts: every test token, wrapped native and the right to set oracle prices', async () => {
    for (const chain of Object.values(manifest.chains)) {
      const client = clientOf(chain);
      for (const account of simulatorAccounts()) {
        expect(manifest.accounts.some((a) => a.address === account.address)).toBe(false);
        for (const t of chain.tokens) {
          expect(await client.readContract({ address: t.address, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })).toBe(1_000_000n * 10n ** BigInt(t.decimals));
        }
        expect(await client.readContract({ address: chain.wrappedNative.address, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })).toBe(10_000n * 10n ** 18n);
        expect(await client.readContract({ address: chain.core.oracle, abi: settablePriceOracleAbi, functionName: 'isUpdater', args: [account.address] })).toBe(true);
      }
    }
  });

  it('with a fixed seed, every action kind lands on the chains and changes them as it says', async () => {
    const chains = Object.values(manifest.chains);
    const before = new Map(await Promise.all(chains.map(async (c) => [c.chainId, await snapshot(c)] as const)));
    const { logger, lines } = collectingLogger();
    const simulator = new Simulator({ manifest, intervalMs: 0, seed: SEED, logger, weights: EVEN });

    const results: ActionResult[] = [];
    for (let i = 0; i < TICKS; i++) results.push(...(await simulator.tick()));

    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(lines.filter((l) => l.level === 'warn')).toEqual([]);
    for (const kind of ACTION_KINDS) expect({ kind, landed: results.some((r) => r.ok && r.kind === kind) }).toEqual({ kind, landed: true });
    const counts = simulator.counts();
    expect(Object.values(counts).flatMap((t) => Object.values(t)).reduce((n, c) => n + c.ok, 0)).toBe(TICKS * chains.length);

    for (const chain of chains) {
      const client = clientOf(chain);
      const was = before.get(chain.chainId)!;
      const now = await snapshot(chain);
      const mine = results.filter((r): r is Extract<ActionResult, { ok: true }> => r.ok && r.chainId === chain.chainId);
      const receipt = (hash: `0x${string}`) => client.getTransactionReceipt({ hash });

      // Pool swaps moved the reserves of the pools they named, and by little: prices stay within 1%.
      for (const r of mine.filter((x) => x.kind === 'v2-swap' || x.kind === 'stable-swap')) {
        const pool = chain.pools.find((p) => p.name === r.detail.pool)!;
        const [a0, a1] = was.reserves.get(pool.address)!;
        const [b0, b1] = now.reserves.get(pool.address)!;
        expect([b0, b1]).not.toEqual([a0, a1]);
        const drift = Math.abs(Number((b0 * 10n ** 18n) / b1) / Number((a0 * 10n ** 18n) / a1) - 1);
        expect(drift).toBeLessThan(0.01);
      }

      // Concentrated swaps went through RouterV2 into the V3 or Algebra pool they named: its Swap event is in the receipt.
      for (const r of mine.filter((x) => x.kind === 'concentrated-swap')) {
        const pool = chain.pools.find((p) => p.name === r.detail.pool)!;
        expect(['uniswap-v3', 'algebra']).toContain(pool.kind);
        const logs = (await receipt(r.txHash)).logs.filter((l) => getAddress(l.address) === pool.address);
        expect(logs.length).toBeGreaterThan(0);
        expect(Number(r.detail.amountOut)).toBeGreaterThan(0);
      }

      // V4 swaps went through RouterV2 into the PoolManager: its Swap event for the pool's id is in the receipt.
      for (const r of mine.filter((x) => x.kind === 'v4-swap')) {
        const pool = (chain.uniswapV4Pools ?? []).find((p) => p.name === r.detail.pool)!;
        const logs = (await receipt(r.txHash)).logs.filter((l) => getAddress(l.address) === pool.poolManager && l.topics[1] === pool.poolId);
        expect(logs.length).toBeGreaterThan(0);
        expect(Number(r.detail.amountOut)).toBeGreaterThan(0);
      }

      // Oracle moves changed prices by a few basis points, inside their bands.
      if (mine.some((r) => r.kind === 'oracle-move')) {
        const moved = [...now.prices].filter(([t, p]) => was.prices.get(t) !== p);
        expect(moved.length).toBeGreaterThan(0);
        for (const [t, p] of now.prices) {
          const start = was.prices.get(t)!;
          const bps = Math.abs(Number(p - start) / Number(start)) * 10_000;
          expect(bps).toBeLessThanOrEqual(ORACLE_BAND_BPS.floating);
          if (start === 10n ** 18n) expect(bps).toBeLessThanOrEqual(ORACLE_BAND_BPS.pegged);
        }
      }

      // Transfers landed: the receipt carries the Transfer the result describes.
      for (const r of mine.filter((x) => x.kind === 'transfer')) {
        const logs = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: (await receipt(r.txHash)).logs });
        expect(logs).toHaveLength(1);
        expect(logs[0].args.to).toBe(getAddress(String(r.detail.to)));
      }

      // Launchpad trades are curve trades; launches added tokens.
      for (const r of mine.filter((x) => x.kind === 'launchpad-trade')) {
        const events = parseEventLogs({ abi: launchpadAbi, logs: (await receipt(r.txHash)).logs }).map((e) => e.eventName);
        expect(events).toContain(r.detail.side === 'buy' ? 'TokensPurchased' : 'TokensSold');
      }
      const launches = mine.filter((x) => x.kind === 'launch-token').length;
      expect(now.launched - was.launched).toBe(BigInt(launches));

      // Core swaps went through the AMM router (the pool's Swap names the router as its user).
      for (const r of mine.filter((x) => x.kind === 'core-swap')) {
        const pool = chain.pools.find((p) => p.name === r.detail.pool)!;
        const logs = (await receipt(r.txHash)).logs.filter((l) => getAddress(l.address) === pool.address);
        expect(logs.length).toBeGreaterThan(0);
      }
    }
  });

  it('logs a failed action on one line and goes on with the next tick', async () => {
    // A manifest whose V2 pools point at an address with no pool: every V2 swap fails.
    const chain = manifest.chains['999'];
    const broken: DevnetManifest = {
      ...manifest,
      chains: { '999': { ...chain, pools: chain.pools.map((p) => (p.kind === 'uniswap-v2' ? { ...p, address: chain.wrappedNative.address } : p)) } },
    };
    const { logger, lines } = collectingLogger();
    const simulator = new Simulator({ manifest: broken, intervalMs: 0, seed: SEED, logger, weights: { ...EVEN, 'v2-swap': 1, 'stable-swap': 0, 'core-swap': 0, 'concentrated-swap': 0, 'v4-swap': 0, transfer: 0, 'launchpad-trade': 0, 'launch-token': 0, 'oracle-move': 0 } });
    const [failed] = await simulator.tick();
    expect(failed).toMatchObject({ chainId: 999, kind: 'v2-swap', ok: false });
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toMatchObject({ msg: 'simulated action failed', chainId: 999, action: 'v2-swap' });
    expect(JSON.stringify(warnings[0].message)).not.toContain('\n');
    expect((await simulator.tick())[0].ok).toBe(false);
    expect(simulator.counts()[999]['v2-swap']).toEqual({ ok: 0, failed: 2 });
  });

  it('ticks on its interval once started, and stop waits for the tick in flight and leaves no timer', async () => {
    const chain = manifest.chains['4663'];
    const client = clientOf(chain);
    const { logger, lines } = collectingLogger();
    const simulator = new Simulator({
      manifest: { ...manifest, chains: { '4663': chain } },
      intervalMs: 100,
      seed: SEED,
      logger,
      weights: { ...EVEN, 'launch-token': 0 },
    });
    simulator.start();
    const deadline = Date.now() + 20_000;
    while (simulator.counts()[4663].transfer.ok + simulator.counts()[4663]['v2-swap'].ok < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await simulator.stop();
    const done = simulator.counts();
    const head = await client.getBlockNumber();
    await new Promise((r) => setTimeout(r, 600));
    expect(await client.getBlockNumber()).toBe(head);
    expect(simulator.counts()).toEqual(done);
    const total = Object.values(done[4663]).reduce((n, c) => n + c.ok + c.failed, 0);
    expect(total).toBeGreaterThanOrEqual(2);
    expect(lines.map((l) => l.message.msg)).toEqual(expect.arrayContaining(['activity simulator started', 'activity simulator stopped']));
    await simulator.stop();
  });
});
