// The deploy tool (runDeployCli) against a bare anvil chain that another account set up: its wrapped native, a
// real @uniswap/v2-core factory and a v4-core PoolManager whose source lists hooks that may change a swap, named in a
// catalogue beside a disabled source. The tool deploys and sets up our contracts (the listed hooks allowed on
// RouterV2) and writes the record; a second run sends nothing; a changed config sends only the changes (a hook the
// catalogue drops disallowed, one it adds allowed); once the owner has taken the contracts, the calls are handed to
// it; a dry run sends to a fork and leaves the chain and the record as they were; a transaction above the small-block
// gas is refused without --big-blocks; Permit2 is deployed (ours) where the chain has none at its canonical address,
// and the canonical one is used and recorded as found once it is there, RouterV2Permit2 following it. Bad usage is
// exit 2 saying why.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { permit2Abi, poolManagerAbi, poolManagerBytecode, routerV2Abi, routerV2Permit2Abi, settablePriceOracleAbi, testERC20Abi, testERC20Bytecode, uniswapV2CoreFactoryAbi, uniswapV2CoreFactoryBytecode, uniswapV2CorePairBytecode, v4QuoterAbi, v4QuoterBytecode, wrappedNativeAbi, wrappedNativeBytecode } from '@dex/abis';
import { CANONICAL_PERMIT2, createChainClient, createChainWalletClient, permit2DomainSeparator, type ChainPublicClient } from '@dex/chain';
import { startAnvil, type AnvilNode } from '@dex/devnet-kit';
import { runDeployCli, type DeployCliIo } from '../src/cli';
import { loadDeployConfig } from '../src/config';
import { routerSources } from '../src/deploy';
import { deploymentRecordSchema } from '../src/record';
import { getAddress, keccak256, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

jest.setTimeout(180_000);

// anvil's well-known dev keys: #0 deploys our contracts, #5 set up the chain, #6 is the operator who will own them.
const DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OTHER_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const OWNER_KEY = '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e';
const TREASURY: Address = getAddress('0x00000000000000000000000000000000000fee01');
const UPDATER: Address = getAddress('0x0000000000000000000000000000000000abc123');
// Hooks of the V4 source, their permissions in their address's low 14 bits: beforeSwap with its return delta (0x88),
// beforeSwap (0x80), afterInitialize only (0x1000: no swap permission, allowed by RouterV2 anyway), beforeSwap again.
const INPUT_FEE_HOOK = { address: getAddress('0x00000000000000000000000000000000000a0088'), name: 'Input-fee hook', quote: 'sampled' } as const;
const SWAP_LIMIT_HOOK = { address: getAddress('0x00000000000000000000000000000000000b0080'), name: 'Swap-limit hook', quote: 'exact' } as const;
const PLAIN_HOOK = { address: getAddress('0x00000000000000000000000000000000000c1000'), name: 'Plain hook', quote: 'exact' } as const;
const NEW_HOOK = { address: getAddress('0x00000000000000000000000000000000000d0080'), name: 'New hook', quote: 'exact' } as const;
type Hook = typeof INPUT_FEE_HOOK | typeof SWAP_LIMIT_HOOK | typeof PLAIN_HOOK | typeof NEW_HOOK;
const V4_INDEX = 8;

describe('npm run deploy', () => {
  let node: AnvilNode;
  let client: ChainPublicClient;
  let dir: string;
  let wrapped: Address;
  let factory: Address;
  let poolManager: Address;
  let v4Quoter: Address;
  const forks: AnvilNode[] = [];

  /** Runs the tool; its exit code and what it printed. */
  async function run(args: string[], env: Record<string, string | undefined> = { DEPLOYER_PRIVATE_KEY: DEPLOYER_KEY }) {
    const out: string[] = [];
    const err: string[] = [];
    const io: DeployCliIo = {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      fork: async (rpcUrl, chainId) => {
        const fork = await startAnvil({ chainId, forkUrl: rpcUrl, accounts: 0 });
        forks.push(fork);
        return { rpcUrl: fork.rpcUrl, stop: () => fork.stop() };
      },
    };
    const code = await runDeployCli(args, env, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const configPath = () => join(dir, 'deploy.json');
  const recordPath = () => join(dir, 'deployments', '999.json');
  const record = () => deploymentRecordSchema.parse(JSON.parse(readFileSync(recordPath(), 'utf8')));
  const hookAllowed = (router: Address, routerIndex: number, hook: Address) => client.readContract({ address: router, abi: routerV2Abi, functionName: 'isHookAllowed', args: [routerIndex, hook] });
  const writeConfig = (extra: Record<string, unknown> = {}, feeBps = 30, hooks: readonly Hook[] = [INPUT_FEE_HOOK, SWAP_LIMIT_HOOK, PLAIN_HOOK]) => {
    writeFileSync(
      join(dir, 'catalogue.json'),
      JSON.stringify({
        chains: {
          999: {
            sources: [
              { name: 'Foreign V2', kind: 'uniswap-v2', routerIndex: 1, addresses: { factory }, feeBps, deploymentBlock: 1, document: 'set up by the test' },
              { name: 'Foreign V4', kind: 'uniswap-v4', routerIndex: V4_INDEX, addresses: { poolManager, v4Quoter }, hooks, deploymentBlock: 1, document: 'set up by the test' },
              { name: 'Some V4', kind: 'uniswap-v4', addresses: {}, hooks: [{ ...NEW_HOOK, name: 'Disabled source hook' }], enabled: false, reason: 'no address found yet' },
            ],
          },
        },
      }),
    );
    writeFileSync(
      configPath(),
      JSON.stringify({
        chainId: 999,
        wrappedNative: wrapped,
        treasury: TREASURY,
        oracle: { kind: 'settable', updaters: [] },
        launchpad: { dexFactory: factory, pairCodeHash: keccak256(uniswapV2CorePairBytecode as Hex) },
        catalogue: 'catalogue.json',
        ...extra,
      }),
    );
  };
  const deployArgs = () => ['--config', configPath(), '--rpc-url', node.rpcUrl, '--out', recordPath()];

  beforeAll(async () => {
    node = await startAnvil({ chainId: 999 });
    client = createChainClient({ chainId: 999, rpcUrl: node.rpcUrl, pollingIntervalMs: 50, multicallBatching: false });
    dir = mkdtempSync(join(tmpdir(), 'deploy-spec-'));
    // The chain as someone else set it up: its wrapped native and a V2 DEX, from another account, with history.
    const other = createChainWalletClient({ chainId: 999, rpcUrl: node.rpcUrl, account: privateKeyToAccount(OTHER_KEY), pollingIntervalMs: 50 });
    const deployed = async (abi: Abi, bytecode: Hex, args: unknown[]) => getAddress((await client.waitForTransactionReceipt({ hash: await other.deployContract({ abi, bytecode, args } as never) })).contractAddress!);
    await client.request({ method: 'anvil_mine' as never, params: ['0x64'] as never });
    wrapped = await deployed(wrappedNativeAbi as Abi, wrappedNativeBytecode, ['Wrapped HYPE', 'WHYPE']);
    factory = await deployed(uniswapV2CoreFactoryAbi as Abi, uniswapV2CoreFactoryBytecode, [other.account.address]);
    // A pair of the factory's: the launchpad checks the pair code hash against it.
    const usd = await deployed(testERC20Abi as Abi, testERC20Bytecode, ['US Dollar', 'USD', 6]);
    await client.waitForTransactionReceipt({ hash: await other.writeContract({ address: factory, abi: uniswapV2CoreFactoryAbi, functionName: 'createPair', args: [wrapped, usd] }) });
    poolManager = await deployed(poolManagerAbi as Abi, poolManagerBytecode, [other.account.address]);
    v4Quoter = await deployed(v4QuoterAbi as Abi, v4QuoterBytecode, [poolManager]);
    writeConfig();
  });

  afterAll(async () => {
    await Promise.all(forks.map((f) => f.stop()));
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses bad usage, a missing key and a chain other than the config names, saying why', async () => {
    expect(await run(['--rpc-url', 'http://127.0.0.1:1'])).toMatchObject({ code: 2, err: expect.stringContaining('--config is required') });
    expect(await run(deployArgs(), {})).toMatchObject({ code: 2, err: expect.stringContaining('DEPLOYER_PRIVATE_KEY must be set') });
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ chainId: 999, treasury: TREASURY }));
    expect(await run(['--config', join(dir, 'bad.json'), '--rpc-url', node.rpcUrl])).toMatchObject({ code: 2, err: expect.stringContaining('wrappedNative') });
    expect(await run(['--config', join(dir, 'bad.json'), '--rpc-url', node.rpcUrl, '--gas', '1'])).toMatchObject({ code: 2, err: expect.stringContaining('unknown argument --gas') });
    const { catalogue: _catalogue, ...config } = JSON.parse(readFileSync(configPath(), 'utf8'));
    writeFileSync(join(dir, 'other-chain.json'), JSON.stringify({ ...config, chainId: 4663 }));
    const wrongChain = await run(['--config', join(dir, 'other-chain.json'), '--rpc-url', node.rpcUrl, '--out', join(dir, 'x.json')]);
    expect(wrongChain).toMatchObject({ code: 1, err: expect.stringContaining('expected 4663') });
  });

  it('a dry run sends every transaction to a fork, prints its gas and cost, and leaves the chain and the record alone', async () => {
    const before = await client.getTransactionCount({ address: privateKeyToAccount(DEPLOYER_KEY).address });
    const dry = await run([...deployArgs(), '--dry-run']);
    expect(dry.err).toBe('');
    expect(dry.code).toBe(0);
    for (const contract of ['RefCodeRegistry', 'SettablePriceOracle', 'AmmRouter', 'RouterV2', 'Launchpad', 'Permit2', 'RouterV2Permit2']) expect(dry.out).toMatch(new RegExp(`deploy ${contract} +gas +\\d+ +cost [0-9.]+`));
    expect(dry.out).toMatch(/RouterV2: source 1 Foreign V2 +gas/);
    expect(dry.out).toMatch(/RouterV2: source 8 Foreign V4 +gas/);
    expect(dry.out).toMatch(new RegExp(`RouterV2: allow hook Input-fee hook ${INPUT_FEE_HOOK.address} for source 8 +gas`));
    expect(dry.out).not.toContain('Some V4');
    expect(dry.out).not.toContain('Disabled source hook');
    // HyperEVM's small blocks: our larger contracts need a big block, and the dry run says which.
    expect(dry.out).toMatch(/deploy RouterV2 .*\(needs a big block\)/);
    expect(await client.getTransactionCount({ address: privateKeyToAccount(DEPLOYER_KEY).address })).toBe(before);
    expect(() => readFileSync(recordPath())).toThrow();
  });

  it('refuses a transaction above the small-block gas unless the deployer uses big blocks', async () => {
    const refused = await run(deployArgs());
    expect(refused).toMatchObject({ code: 1, err: expect.stringMatching(/needs \d+ gas, more than a small block's 2000000: .*--big-blocks/) });
  });

  it('deploys and sets up everything, records it, and a second run sends nothing', async () => {
    const first = await run([...deployArgs(), '--big-blocks']);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const r = record();
    expect(Object.keys(r.contracts).sort()).toEqual(['ammRouter', 'launchpad', 'oracle', 'permit2', 'refCodeRegistry', 'routerV2', 'routerV2Permit2']);
    for (const c of Object.values(r.contracts)) expect(keccak256((await client.getCode({ address: c.address }))!)).toBe(c.runtimeCodeHash);
    const routerV2 = r.contracts.routerV2.address;
    // No Permit2 at its canonical address on this chain: ours is deployed and recorded as ours, RouterV2Permit2 beside it.
    const permit2 = r.contracts.permit2;
    expect(permit2).toMatchObject({ contract: 'Permit2', args: [], blockNumber: expect.stringMatching(/^\d+$/), transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(permit2).not.toHaveProperty('existing');
    expect(permit2.address).not.toBe(CANONICAL_PERMIT2);
    expect(await client.readContract({ address: permit2.address, abi: permit2Abi, functionName: 'DOMAIN_SEPARATOR' })).toBe(permit2DomainSeparator(999, permit2.address));
    expect(r.contracts.routerV2Permit2).toMatchObject({ contract: 'RouterV2Permit2', args: [routerV2, permit2.address] });
    const routerV2Permit2 = r.contracts.routerV2Permit2.address;
    expect(await client.readContract({ address: routerV2Permit2, abi: routerV2Permit2Abi, functionName: 'router' })).toBe(routerV2);
    expect(await client.readContract({ address: routerV2Permit2, abi: routerV2Permit2Abi, functionName: 'permit2' })).toBe(permit2.address);
    const source = (i: number) => client.readContract({ address: routerV2, abi: routerV2Abi, functionName: 'getSource', args: [i] });
    expect(await source(0)).toEqual({ kind: 3, factory: r.contracts.ammRouter.address, feeBps: 0 });
    expect(await source(1)).toEqual({ kind: 1, factory, feeBps: 30 });
    expect(await source(4)).toEqual({ kind: 4, factory: r.contracts.launchpad.address, feeBps: 0 });
    expect(await source(V4_INDEX)).toEqual({ kind: 7, factory: poolManager, feeBps: 0 });
    expect(await client.readContract({ address: routerV2, abi: routerV2Abi, functionName: 'treasury' })).toBe(TREASURY);
    expect(r.sources.map((s) => s.routerIndex)).toEqual([0, 1, 4, V4_INDEX]);
    // The listed hooks that may change a swap are allowed for the V4 source, and only for it; the plain one needed nothing.
    expect(await hookAllowed(routerV2, V4_INDEX, INPUT_FEE_HOOK.address)).toBe(true);
    expect(await hookAllowed(routerV2, V4_INDEX, SWAP_LIMIT_HOOK.address)).toBe(true);
    expect(await hookAllowed(routerV2, 1, INPUT_FEE_HOOK.address)).toBe(false);
    expect(await hookAllowed(routerV2, V4_INDEX, NEW_HOOK.address)).toBe(false);
    expect(first.out.match(/RouterV2: allow hook/g)).toHaveLength(2);
    expect(first.out).not.toContain('Plain hook');
    expect(r.hooks).toEqual([INPUT_FEE_HOOK, SWAP_LIMIT_HOOK, PLAIN_HOOK].map((h) => ({ routerIndex: V4_INDEX, address: h.address, name: h.name })));

    const again = await run([...deployArgs(), '--big-blocks']);
    expect(again.code).toBe(0);
    expect(again.out).toContain('0 transaction(s)');
    expect(again.out).not.toMatch(/^deploy /m);
    expect(record().contracts).toEqual(r.contracts);
  });

  it('allows a hook the catalogue adds and disallows one it drops, then sends nothing more', async () => {
    const routerV2 = record().contracts.routerV2.address;
    writeConfig({}, 30, [SWAP_LIMIT_HOOK, PLAIN_HOOK, NEW_HOOK]);
    const changed = await run([...deployArgs(), '--big-blocks']);
    expect(changed.err).toBe('');
    expect(changed.out).toMatch(new RegExp(`RouterV2: allow hook New hook ${NEW_HOOK.address} for source 8 +gas`));
    expect(changed.out).toMatch(new RegExp(`RouterV2: disallow hook Input-fee hook ${INPUT_FEE_HOOK.address} for source 8 +gas`));
    expect(changed.out).toContain('2 transaction(s)');
    expect(await hookAllowed(routerV2, V4_INDEX, NEW_HOOK.address)).toBe(true);
    expect(await hookAllowed(routerV2, V4_INDEX, INPUT_FEE_HOOK.address)).toBe(false);
    expect(record().hooks.map((h) => h.name)).toEqual(['Swap-limit hook', 'Plain hook', 'New hook']);
    expect((await run([...deployArgs(), '--big-blocks'])).out).toContain('0 transaction(s)');

    // Back to the first list: the input-fee hook allowed again, the new one disallowed.
    writeConfig();
    const back = await run([...deployArgs(), '--big-blocks']);
    expect(back.out).toContain('2 transaction(s)');
    expect(await hookAllowed(routerV2, V4_INDEX, INPUT_FEE_HOOK.address)).toBe(true);
    expect(await hookAllowed(routerV2, V4_INDEX, NEW_HOOK.address)).toBe(false);
  });

  it('sends only what a changed config changes, proposes the owner last, then hands the owner the calls it alone can make', async () => {
    const owner = privateKeyToAccount(OWNER_KEY);
    writeConfig({ owner: owner.address, oracle: { kind: 'settable', updaters: [UPDATER] } });
    const changed = await run([...deployArgs(), '--big-blocks']);
    expect(changed.code).toBe(0);
    expect(changed.out).not.toMatch(/^deploy /m);
    expect(changed.out).toMatch(/oracle: allow updater/);
    expect(changed.out.match(/propose owner/g)).toHaveLength(5);
    const r = record();
    expect(await client.readContract({ address: r.contracts.oracle.address, abi: settablePriceOracleAbi, functionName: 'isUpdater', args: [UPDATER] })).toBe(true);
    expect(await client.readContract({ address: r.contracts.routerV2.address, abi: routerV2Abi, functionName: 'pendingOwner' })).toBe(owner.address);

    // The owner accepts RouterV2; a later change of a source is then the owner's to send, and the tool says so.
    const ownerWallet = createChainWalletClient({ chainId: 999, rpcUrl: node.rpcUrl, account: owner, pollingIntervalMs: 50 });
    await client.waitForTransactionReceipt({ hash: await ownerWallet.writeContract({ address: r.contracts.routerV2.address, abi: routerV2Abi, functionName: 'acceptOwnership' }) });
    writeConfig({ owner: owner.address, oracle: { kind: 'settable', updaters: [UPDATER] } }, 25, [INPUT_FEE_HOOK, SWAP_LIMIT_HOOK, PLAIN_HOOK, NEW_HOOK]);
    const handed = await run([...deployArgs(), '--big-blocks']);
    expect(handed.code).toBe(0);
    expect(handed.out).toMatch(new RegExp(`RouterV2: source 1 Foreign V2 +for the owner ${owner.address} to send: to ${r.contracts.routerV2.address} data 0x[0-9a-f]+`));
    expect(handed.out).toMatch(new RegExp(`RouterV2: allow hook New hook ${NEW_HOOK.address} for source 8 +for the owner ${owner.address} to send: to ${r.contracts.routerV2.address} data 0x[0-9a-f]+`));
    expect(handed.out).toContain('2 call(s) for the owner to send');
    expect(handed.out).toContain('0 transaction(s)');
  });

  it("uses Permit2 at its canonical address once the chain has it, recorded as found, and RouterV2Permit2 follows it", async () => {
    // The code deployed at the canonical address on Ethereum, as v4-periphery's DeployPermit2 places it.
    const deployPermit2 = readFileSync(join(__dirname, '../../../node_modules/@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol'), 'utf8');
    const canonicalCode = `0x${/hex"([0-9a-fA-F]+)"/.exec(deployPermit2)![1].toLowerCase()}` as Hex;
    await client.request({ method: 'anvil_setCode' as never, params: [CANONICAL_PERMIT2, canonicalCode] as never });
    const before = record();
    const moved = await run([...deployArgs(), '--big-blocks']);
    expect(moved.err).toBe('');
    expect(moved.code).toBe(0);
    expect(moved.out).toContain(`use Permit2`);
    expect(moved.out).toContain(`at its canonical address ${CANONICAL_PERMIT2}`);
    expect(moved.out).not.toMatch(/^deploy Permit2 /m);
    expect(moved.out).toMatch(/^deploy RouterV2Permit2 +gas/m);
    expect(moved.out).toMatch(new RegExp(`^permit2 +Permit2 +${CANONICAL_PERMIT2}  found there$`, 'm'));
    const r = record();
    expect(r.contracts.permit2).toEqual({ contract: 'Permit2', address: CANONICAL_PERMIT2, existing: true, runtimeCodeHash: keccak256(canonicalCode) });
    const routerV2 = r.contracts.routerV2.address;
    expect(r.contracts.routerV2Permit2).toMatchObject({ contract: 'RouterV2Permit2', args: [routerV2, CANONICAL_PERMIT2] });
    expect(r.contracts.routerV2Permit2.address).not.toBe(before.contracts.routerV2Permit2.address);
    for (const c of Object.values(r.contracts)) expect(keccak256((await client.getCode({ address: c.address }))!)).toBe(c.runtimeCodeHash);
    expect(await client.readContract({ address: r.contracts.routerV2Permit2.address, abi: routerV2Permit2Abi, functionName: 'permit2' })).toBe(CANONICAL_PERMIT2);
    expect(await client.readContract({ address: r.contracts.routerV2Permit2.address, abi: routerV2Permit2Abi, functionName: 'router' })).toBe(routerV2);
    // The other contracts stay.
    for (const role of ['refCodeRegistry', 'oracle', 'ammRouter', 'routerV2', 'launchpad']) expect(r.contracts[role]).toEqual(before.contracts[role]);

    const again = await run([...deployArgs(), '--big-blocks']);
    expect(again.code).toBe(0);
    expect(again.out).toContain('0 transaction(s)');
    expect(again.out).not.toMatch(/^deploy /m);
    expect(record().contracts).toEqual(r.contracts);
  });
});

describe('the catalogues and example configs in config/', () => {
  const root = join(__dirname, '..', '..', '..');

  it.each([999, 4663])('chain %i: the example config and its catalogue load; only sources RouterV2 trades, from official documents, are enabled', (chainId) => {
    const { config, sources } = loadDeployConfig(join(root, 'config', 'deploy', `${chainId}.example.json`));
    expect(config.chainId).toBe(chainId);
    expect(sources.length).toBeGreaterThan(0);
    for (const s of sources) expect(['uniswap-v2', 'uniswap-v3', 'algebra']).toContain(s.kind);
    const file = JSON.parse(readFileSync(join(root, 'config', 'chains', `${chainId}.json`), 'utf8')).chains[String(chainId)];
    for (const entry of file.sources) {
      expect(typeof entry.document).toBe('string');
      if (entry.enabled) expect(entry.provenance).toBe('official');
      else expect(entry.reason).toEqual(expect.any(String));
    }
    // Every routerIndex once, and none that our core AMM (0) or launchpad (4) takes.
    const indexes = file.sources.map((s: { routerIndex: number }) => s.routerIndex);
    expect(new Set(indexes).size).toBe(indexes.length);
    expect(indexes).not.toContain(0);
    expect(indexes).not.toContain(4);
    expect(routerSources(config, sources, { ammRouter: TREASURY }).map((s) => s.kind)).toContain('core');
  });
});
