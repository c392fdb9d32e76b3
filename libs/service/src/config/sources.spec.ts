import type { SourceConfig } from '@dex/messages';
import { ConfigError } from './config';
import { sourceContracts } from './sources';

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
