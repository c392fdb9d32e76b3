import type { SourceConfig } from '@dex/messages';
import { SourceRegistry } from './source-registry';

const source = (routerIndex: number): SourceConfig => ({ name: `S${routerIndex}`, kind: 'uniswap-v2', routerIndex, addresses: {}, feeBps: 30 });

describe('SourceRegistry', () => {
  const registry = () => {
    const r = SourceRegistry.of(new Map([[999, [source(1), source(2), source(3)]]]));
    r.setState(999, 1, { status: 'active' });
    r.setState(999, 2, { status: 'failed', reason: 'no contract at its factory 0x…' });
    return r;
  };

  it('lists every source with its status, unchecked until checked', () => {
    expect(registry().dexes(999)!.map((d) => [d.routerIndex, d.status, d.reason])).toEqual([
      [1, 'active', undefined],
      [2, 'failed', 'no contract at its factory 0x…'],
      [3, 'unchecked', 'not checked against the chain yet'],
    ]);
  });

  it('leaves the sources that are not active out of every filter a request can give', () => {
    const r = registry();
    expect(r.unusable(999)).toEqual([2, 3]);
    expect(r.usableFilter(999, {})).toEqual({ excludeDexes: [2, 3] });
    expect(r.usableFilter(999, { excludeDexes: [1, 2] })).toEqual({ excludeDexes: [1, 2, 3] });
    expect(r.usableFilter(999, { includeDexes: [1, 2] })).toEqual({ includeDexes: [1] });
    // Only unusable sources asked for: every source left out (an empty include list would admit them all).
    expect(r.usableFilter(999, { includeDexes: [2, 3], excludePools: ['0xabc'] })).toEqual({ includeDexes: undefined, excludeDexes: [1, 2, 3], excludePools: ['0xabc'] });
    r.setState(999, 2, { status: 'active' });
    r.setState(999, 3, { status: 'active' });
    const filter = { includeDexes: [2] };
    expect(r.usableFilter(999, filter)).toBe(filter);
  });
});
