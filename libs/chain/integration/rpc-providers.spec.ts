// Several RPC providers for one chain (`RPC_URL_<chainId>` with comma-separated URLs), on real anvil nodes behind
// proxies a test can kill or stall: a provider that fails, hangs or falls behind is passed over, and the chain
// turns stale once no provider has given a block for longer than the bound, fresh again when one is back.
import { createChainClient, RpcProviders, rpcProviders, toViemChain } from '@dex/chain';
import { createClient, publicActions } from 'viem';
import { startAnvil, type AnvilNode } from '@dex/devnet-kit';
import { startRpcProxy, type RpcProxy } from '@dex/testing';

jest.setTimeout(60_000);

const OPTIONS = { probeIntervalMs: 200, maxLagBlocks: 5, staleAfterMs: 1_500 };

const until = async (accept: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> => {
  const started = Date.now();
  while (!(await accept())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
};

describe('RPC providers of a chain', () => {
  let node: AnvilNode;
  /** A node of the same chain id that stays at its genesis block: a provider that has fallen behind. */
  let laggard: AnvilNode;
  let a: RpcProxy;
  let b: RpcProxy;
  let behind: RpcProxy;
  const mine = (blocks: number) => fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [`0x${blocks.toString(16)}`] }) });

  beforeAll(async () => {
    [node, laggard] = await Promise.all([startAnvil({ chainId: 999 }), startAnvil({ chainId: 999 })]);
    await mine(20);
    [a, b, behind] = await Promise.all([startRpcProxy(node.rpcUrl), startRpcProxy(node.rpcUrl), startRpcProxy(laggard.rpcUrl)]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), behind?.close()]);
    await Promise.all([node?.stop(), laggard?.stop()]);
  });

  it('passes over a provider that is killed, then goes stale when all are, and recovers', async () => {
    const rpcUrl = `${a.url},${b.url}`;
    const providers = rpcProviders(999, rpcUrl, OPTIONS);
    const client = createChainClient({ chainId: 999, rpcUrl, timeoutMs: 2_000 });
    expect(await client.getBlockNumber()).toBe(20n);
    await until(() => providers.freshness().providers.every((p) => p.state === 'up'), 5_000);

    // The first provider dies: every request is answered by the second, none fails.
    await a.kill();
    const before = b.forwarded;
    for (let i = 0; i < 10; i++) expect(await client.getBlockNumber()).toBe(20n);
    expect(b.forwarded - before).toBeGreaterThanOrEqual(10);
    await until(() => providers.freshness().providers[0].state === 'down', 5_000);
    expect(providers.freshness()).toMatchObject({ stale: false, providers: [{ state: 'down' }, { state: 'up', head: '20' }] });

    // Both die: requests fail, and once the bound has passed without a block the chain is stale.
    await b.kill();
    await expect(client.getBlockNumber()).rejects.toThrow();
    await until(() => providers.freshness().stale, 10_000);
    expect(providers.freshness().sinceMs).toBeGreaterThan(OPTIONS.staleAfterMs);

    // One comes back: fresh again at the next look, and it answers.
    await b.revive();
    await until(() => !providers.freshness().stale, 5_000);
    expect(await client.getBlockNumber()).toBe(20n);
    await a.revive();
  });

  it('keeps a chain whose only provider answers late fresh: slow is not gone', async () => {
    const providers = new RpcProviders(999, [b.url], OPTIONS);
    try {
      providers.start();
      await until(() => providers.freshness().providers[0].state === 'up', 5_000);
      // Each answer comes later than a look's interval, well within the staleness bound.
      b.slow(700);
      const seen = new Set<string>();
      const started = Date.now();
      while (Date.now() - started < 3 * OPTIONS.staleAfterMs) {
        const f = providers.freshness();
        seen.add(`${f.stale}:${f.providers[0].state}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect([...seen]).toEqual(['false:up']);
      // No answer at all: stale once the bound has passed.
      b.stall();
      await until(() => providers.freshness().stale, 10_000);
    } finally {
      providers.stop();
      b.slow(0);
      b.resume();
    }
  });

  it('passes over a provider that hangs', async () => {
    const providers = new RpcProviders(999, [a.url, b.url], OPTIONS);
    const client = createClient({ chain: toViemChain(999, a.url), transport: providers.transport({ timeoutMs: 2_000 }) }).extend(publicActions);
    try {
      await until(() => providers.freshness().providers.every((p) => p.state === 'up'), 5_000);
      a.stall();
      // The request in flight on the hung provider moves on after its timeout; once it is marked down, the next
      // ones go straight to the second.
      let started = Date.now();
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(20n);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(providers.freshness().providers[0].state).toBe('down');
      started = Date.now();
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(20n);
      // Not waiting for the hung one's timeout.
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      providers.stop();
      a.resume();
    }
  });

  it('passes over a provider that has fallen behind', async () => {
    // The laggard is first in order, at block 0 while the others are at 20.
    const rpcUrl = `${behind.url},${a.url}`;
    const providers = rpcProviders(999, rpcUrl, OPTIONS);
    const client = createChainClient({ chainId: 999, rpcUrl });
    await until(() => providers.freshness().providers[0].state === 'behind', 5_000);
    const asked = behind.forwarded;
    for (let i = 0; i < 5; i++) expect(await client.getBlockNumber()).toBe(20n);
    // It is still asked for its head by the look, never for anything else.
    expect(providers.freshness()).toMatchObject({ stale: false, providers: [{ state: 'behind', head: '0' }, { state: 'up', head: '20' }] });
    expect(behind.forwarded - asked).toBeLessThan(5 + 5);
  });
});
