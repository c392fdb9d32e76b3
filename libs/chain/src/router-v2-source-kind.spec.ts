import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRouterV2SourceKind, ROUTER_V2_SOURCE_KIND, routerSourceContract } from './router-v2-source-kind';

/** The members of `enum SourceKind` in RouterV2's interface, in declaration order (their values). */
function solidityEnumMembers(): string[] {
  const source = readFileSync(join(__dirname, '../../contracts/src/router/interfaces/IRouterV2.sol'), 'utf8');
  const body = /enum SourceKind \{([^}]*)\}/.exec(source)?.[1];
  if (!body) throw new Error('enum SourceKind not found in IRouterV2.sol');
  return body
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member.length > 0);
}

/** `UniswapV3` -> `uniswap-v3`, `Algebra` -> `algebra`, `CurveStableswapNG` -> `curve-stableswap-ng`. */
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

describe('ROUTER_V2_SOURCE_KIND', () => {
  it('matches the Solidity enum member for member, None being 0', () => {
    const members = solidityEnumMembers();
    expect(members[0]).toBe('None');
    const fromSolidity = Object.fromEntries(members.slice(1).map((member, i) => [kebab(member), i + 1]));
    expect(fromSolidity).toEqual(ROUTER_V2_SOURCE_KIND);
  });

  it('keeps the numbers routes and registries already use, and adds uniswap-v3, algebra, uniswap-v4 and the Curve NG kinds after them', () => {
    expect(ROUTER_V2_SOURCE_KIND).toEqual({
      'uniswap-v2': 1,
      stable: 2,
      core: 3,
      launchpad: 4,
      'uniswap-v3': 5,
      algebra: 6,
      'uniswap-v4': 7,
      'curve-stableswap-ng': 8,
      'curve-twocrypto-ng': 9,
    });
  });

  it('tells known kind names from others', () => {
    expect(isRouterV2SourceKind('uniswap-v3')).toBe(true);
    expect(isRouterV2SourceKind('algebra')).toBe(true);
    expect(isRouterV2SourceKind('uniswap-v4')).toBe(true);
    expect(isRouterV2SourceKind('curve-stableswap-ng')).toBe(true);
    expect(isRouterV2SourceKind('curve-twocrypto-ng')).toBe(true);
    expect(isRouterV2SourceKind('curve-cryptoswap')).toBe(false);
    expect(isRouterV2SourceKind('toString')).toBe(false);
  });
  it('registers the contract that vouches for a source: factory, router, PoolManager, or a launchpad source\'s launchpad', () => {
    const a = (n: number) => `0x${String(n).padStart(40, '0')}`;
    expect(routerSourceContract({ kind: 'uniswap-v3', addresses: { factory: a(1), quoterV2: a(2) } })).toBe(a(1));
    expect(routerSourceContract({ kind: 'core', addresses: { router: a(3), registry: a(4) } })).toBe(a(3));
    expect(routerSourceContract({ kind: 'uniswap-v4', addresses: { poolManager: a(5), stateView: a(6) } })).toBe(a(5));
    expect(routerSourceContract({ kind: 'launchpad', addresses: { launchpad: a(7) } })).toBe(a(7));
    expect(routerSourceContract({ kind: 'uniswap-v2', addresses: { launchpad: a(7) } })).toBeUndefined();
  });
});
