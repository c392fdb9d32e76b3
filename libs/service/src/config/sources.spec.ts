import type { SourceConfig } from '@dex/messages';
import { ConfigError } from './config';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSourcesConfig, readSourcesFile, sourceContracts } from './sources';

const A = '0x00000000000000000000000000000000000000aA';
const B = '0x00000000000000000000000000000000000000bB';
const source = (kind: SourceConfig['kind'], addresses: Record<string, string>, routerIndex = 0) => ({ name: kind, kind, routerIndex, addresses }) as SourceConfig;

describe('sourceContracts', () => {
  const sources = new Map<number, SourceConfig[]>([
    [999, [source('core', { router: A, registry: B }), source('launchpad', { launchpad: B }, 4)]],
    [4663, [source('core', { router: B, registry: A })]],
  ]);

  it("gives each chain's contracts of a source kind by role", () => {
    expect(sourceContracts('svc', sources, 'core', ['router', 'registry'])).toEqual(
      new Map([
        [999, { router: A, registry: B }],
        [4663, { router: B, registry: A }],
      ]),
    );
  });

  it('stops the service naming the setting when a chain lacks the source or a role, unless the source is optional', () => {
    expect(() => sourceContracts('svc', sources, 'core', ['router', 'oracle'])).toThrow(ConfigError);
    expect(() => sourceContracts('svc', sources, 'core', ['router', 'oracle'])).toThrow('invalid setting SOURCES_CONFIG: chain 999 has no core source with router, oracle addresses');
    expect(() => sourceContracts('svc', sources, 'launchpad', ['launchpad'])).toThrow('chain 4663 has no launchpad source with launchpad addresses');
    expect(sourceContracts('svc', sources, 'launchpad', ['launchpad'], { optional: true })).toEqual(new Map([[999, { launchpad: B }]]));
  });
});

describe('a chain described by its catalogue and deployment record', () => {
  const dir = mkdtempSync(join(tmpdir(), 'golive-'));
  const repo = join(__dirname, '..', '..', '..', '..');
  const record = (chainId: number) => ({
    chainId,
    deployer: A,
    contracts: Object.fromEntries(
      ['refCodeRegistry', 'oracle', 'ammRouter', 'routerV2', 'launchpad'].map((role, i) => [role, { contract: role, address: `0x${'0'.repeat(39)}${i + 1}`, blockNumber: '7', transactionHash: '0x', initCodeHash: '0x', runtimeCodeHash: '0x', args: [] }]),
    ),
    sources: [
      { routerIndex: 0, name: 'core', kind: 'core', factory: A, feeBps: 0 },
      { routerIndex: 4, name: 'launchpad', kind: 'launchpad', factory: B, feeBps: 0 },
    ],
    config: { treasury: B },
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([999, 4663])('chain %i: every service reads its sources, RouterV2 and our contracts from the two files', (chainId) => {
    writeFileSync(join(dir, `${chainId}.json`), JSON.stringify(record(chainId)));
    const path = join(dir, `sources-${chainId}.json`);
    writeFileSync(path, JSON.stringify({ chains: { [chainId]: { catalogue: join(repo, 'config', 'chains', `${chainId}.json`), deployment: `${chainId}.json`, nativeSymbol: chainId === 999 ? 'HYPE' : 'ETH' } } }));
    const entry = (readSourcesFile('svc', path) as { chains: Record<string, Record<string, unknown>> }).chains[String(chainId)];
    expect(entry).toMatchObject({ routerV2: `0x${'0'.repeat(39)}4`, treasury: B, multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11', launchpad: { address: `0x${'0'.repeat(39)}5`, tokens: [] } });
    expect(entry.wrappedNative).toMatchObject({ symbol: chainId === 999 ? 'WHYPE' : 'WETH', decimals: 18 });
    const sources = loadSourcesConfig('svc', path, [chainId]).get(chainId)!;
    expect(sources.slice(0, 1)).toEqual([{ name: 'Core', kind: 'core', routerIndex: 0, addresses: { router: `0x${'0'.repeat(39)}3`, registry: `0x${'0'.repeat(39)}1`, oracle: `0x${'0'.repeat(39)}2` }, deploymentBlock: 7 }]);
    expect(sources.find((s) => s.kind === 'launchpad')).toMatchObject({ routerIndex: 4, addresses: { launchpad: `0x${'0'.repeat(39)}5` } });
    // The catalogue's enabled sources only, those RouterV2 trades.
    const catalogue = JSON.parse(readFileSync(join(repo, 'config', 'chains', `${chainId}.json`), 'utf8')).chains[String(chainId)].sources;
    const enabled = catalogue.filter((s: { enabled: boolean }) => s.enabled).map((s: { routerIndex: number }) => s.routerIndex);
    expect(sources.filter((s) => s.kind !== 'core' && s.kind !== 'launchpad').map((s) => s.routerIndex)).toEqual(enabled);
  });

  it("keeps a V4 source's listed hooks, as the deploy tool allowed them", () => {
    writeFileSync(join(dir, '999.json'), JSON.stringify(record(999)));
    // Checksummed, as the sources schema gives them back.
    const [manager, quoter, hook] = ['0x00000000000000000000000000000000000000AA', '0x00000000000000000000000000000000000000bb', '0x0000000000000000000000000000000000000088'];
    const hooks = [{ address: hook, name: 'Fee hook', quote: 'sampled' }];
    const catalogue = {
      chains: {
        999: {
          wrappedNative: { symbol: 'WHYPE', address: quoter },
          sources: [
            { name: 'Some V4', kind: 'uniswap-v4', routerIndex: 8, addresses: { poolManager: manager, v4Quoter: quoter }, hooks, enabled: true, document: 'test' },
            { name: 'Off V4', kind: 'uniswap-v4', routerIndex: 9, addresses: { poolManager: quoter }, hooks, enabled: false, reason: 'test' },
          ],
        },
      },
    };
    writeFileSync(join(dir, 'catalogue-hooks.json'), JSON.stringify(catalogue));
    const path = join(dir, 'sources-hooks.json');
    writeFileSync(path, JSON.stringify({ chains: { 999: { catalogue: 'catalogue-hooks.json', deployment: '999.json' } } }));
    const sources = loadSourcesConfig('svc', path, [999]).get(999)!;
    expect(sources.filter((s) => s.kind === 'uniswap-v4')).toEqual([{ name: 'Some V4', kind: 'uniswap-v4', routerIndex: 8, addresses: { poolManager: manager, v4Quoter: quoter }, hooks }]);
  });

  it('stops the service naming the file when the record is of another chain or the catalogue lacks the chain', () => {
    writeFileSync(join(dir, 'other.json'), JSON.stringify(record(4663)));
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ chains: { 999: { catalogue: join(repo, 'config', 'chains', '999.json'), deployment: 'other.json' } } }));
    expect(() => readSourcesFile('svc', path)).toThrow('chain 999: other.json is the record of chain 4663');
    writeFileSync(path, JSON.stringify({ chains: { 999: { catalogue: join(repo, 'config', 'chains', '4663.json'), deployment: '999.json' } } }));
    expect(() => readSourcesFile('svc', path)).toThrow(/4663\.json has no chain 999/);
  });
});
